package cli

import (
	"bytes"
	"fmt"
	"os"

	"ringside/app/service"
)

// sheetOptions are the flags of "event sheet".
func sheetOptions(out *string) []option {
	return []option{stringOption(out, "out", "FILE", "", "write the results sheet to FILE (an .html page)", "stdout")}
}

// eventSheet writes an event's results sheet: one HTML page for pupils
// and parents, which opens and prints without a network.
func eventSheet(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("event sheet")
	var out string
	declare(fs, sheetOptions(&out))
	id, err := eventID(fs, args)
	if err != nil {
		return err
	}
	return withReadService(*dbPath, func(s *service.Service) error {
		var b bytes.Buffer
		if err := s.WriteSheet(&b, id); err != nil {
			return err
		}
		if out == "" {
			_, err := c.stdout.Write(b.Bytes())
			return err
		}
		if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
			return fmt.Errorf("event sheet: %w", err)
		}
		fmt.Fprintf(c.stdout, "results sheet of event %d written to %s\n", id, out)
		return nil
	})
}
