package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"ringside/app/class"
	"ringside/app/service"
)

func init() {
	register(&command{
		name: "class", usage: "add|roster|revoke|reissue|slips|serve|publish ...",
		summary: "a class's students hand in from their own laptops over the network",
		help: func() string {
			return `ringside class add --game G NAME... makes one AI per student, each with a
random token, and prints each student's slip line: name, token and the class
server's certificate fingerprint. Tokens are shown only here and by "class
reissue"; the database keeps only their SHA-256.

ringside class roster lists the students, their tokens' state and their last
hand-in. "class revoke NAME" takes a token back (it opens nothing from then
on); "class reissue NAME" gives the student a new one. "class slips --out
FILE.html" writes one printable page with a slip per student: name, address,
a new token and a QR code of the address (printing slips reissues every valid
token, since tokens are not kept).

ringside class serve listens for hand-ins (loopback unless --addr says
otherwise; pick the classroom network's address of this machine). TLS with
the database's own certificate: students' "ringside submit" checks its
fingerprint. A hand-in keeps only the source files (as the folder watcher
does), is built and checked in the sandbox, and makes a revision like a
watched folder's; the newest hand-in of a student wins over a queued older
one. Every request is logged with its source address in DATABASE.class.log.
Stop it with Ctrl-C.

ringside class publish EVENT_ID [--off] shows an event's standings on the
class page (or hides them).

class add:
` + optionsHelp(2, 21, classAddOptions(new(string))) + `
class slips:
` + optionsHelp(2, 21, classSlipsOptions(new(string), new(string))) + `
class serve:
` + optionsHelp(2, 21, classServeOptions(new(serveFlags))) + `
class publish:
` + optionsHelp(2, 21, classPublishOptions(new(bool))) + "\n" + dbHelp()
		},
		run: runClass,
	})
}

func classAddOptions(game *string) []option {
	return []option{stringOption(game, "game", "G", "", "the game the students' programs play", required)}
}

func classSlipsOptions(out, url *string) []option {
	return []option{
		stringOption(out, "out", "FILE", "", "the HTML page to write", required),
		stringOption(url, "url", "URL", "https://"+class.DefaultAddr, "the address students type (class serve prints it)"),
	}
}

func classPublishOptions(off *bool) []option {
	return []option{boolOption(off, "off", "hide the event again")}
}

type serveFlags struct {
	addr, deadline, late string
	insecure, noSandbox  bool
	maxConns             int
}

func classServeOptions(f *serveFlags) []option {
	return []option{
		stringOption(&f.addr, "addr", "HOST:PORT", class.DefaultAddr, "where to listen (port 0 picks a free one)"),
		boolOption(&f.insecure, "insecure-http", "serve plain HTTP: tokens cross the network in clear; every page warns"),
		stringOption(&f.deadline, "deadline", "TIME", "", "hand-ins after it are late (2026-11-29 14:30, RFC 3339 or HH:MM today; \"none\" clears it)", "the stored one"),
		stringOption(&f.late, "late", "refuse|keep", "", "what to do with late hand-ins", "the stored policy (refuse at first)"),
		boolOption(&f.noSandbox, "no-sandbox", "serve although builds cannot be fully sandboxed here"),
		intOption(&f.maxConns, "max-conns", "N", class.DefaultMaxConns, "connections held at once"),
	}
}

func runClass(c *cli, args []string) error {
	if len(args) == 0 {
		return usagef("class: say what to do: add, roster, revoke, reissue, slips, serve or publish (see \"ringside help class\")")
	}
	sub := map[string]func(*cli, []string) error{
		"add": classAdd, "roster": classRoster, "revoke": classRevoke, "reissue": classReissue,
		"slips": classSlips, "serve": classServe, "publish": classPublish,
	}
	f, ok := sub[args[0]]
	if !ok {
		return usagef("class: unknown subcommand %q (add, roster, revoke, reissue, slips, serve, publish)", args[0])
	}
	return f(c, args[1:])
}

func classAdd(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("class add")
	game := new(string)
	declare(fs, classAddOptions(game))
	names, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if *game == "" || len(names) == 0 {
		return usagef("class add: give --game G and at least one student's name")
	}
	return withService(*dbPath, func(svc *service.Service) error {
		toks, err := svc.ClassAdd(*game, names)
		for _, t := range toks {
			if perr := printSlipLine(c, svc, t); perr != nil {
				return perr
			}
		}
		return err
	})
}

func printSlipLine(c *cli, svc *service.Service, t service.IssuedToken) error {
	_, fp, err := class.Certificate(svc)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "%s\ttoken %s\tfingerprint %s\n", service.Visible(t.Student.Name), t.Token, fp)
	return nil
}

func classRoster(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("class roster")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	return withService(*dbPath, func(svc *service.Service) error {
		st, err := svc.ClassRoster()
		if err != nil {
			return err
		}
		_, fp, err := class.Certificate(svc)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.stdout, "certificate fingerprint %s\n", fp)
		rows := make([][]string, len(st))
		for i, s := range st {
			tok := "valid"
			if s.Revoked {
				tok = "revoked"
			}
			last := "-"
			if s.Last != nil {
				last = fmt.Sprintf("#%d %s %s", s.Last.ID, s.Last.Time.Format("15:04:05"), s.Last.State)
			}
			rows[i] = []string{service.Visible(s.Name), s.Game, tok, strconv.Itoa(s.HandIns), last}
		}
		return c.printTable("NAME\tGAME\tTOKEN\tHAND-INS\tLAST", rows, "no students yet: add them with \"ringside class add --game G NAME...\"")
	})
}

func studentArg(c *cli, cmd string, args []string, fn func(svc *service.Service, st service.ClassStudent) error) error {
	fs, dbPath := c.dbFlags(cmd)
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usagef("%s: give one student's name", cmd)
	}
	return withService(*dbPath, func(svc *service.Service) error {
		st, err := svc.StudentNamed(rest[0])
		if err != nil {
			return err
		}
		return fn(svc, st)
	})
}

func classRevoke(c *cli, args []string) error {
	return studentArg(c, "class revoke", args, func(svc *service.Service, st service.ClassStudent) error {
		if err := svc.RevokeToken(st.AIID); err != nil {
			return err
		}
		fmt.Fprintf(c.stdout, "%s's token is revoked; \"ringside class reissue %s\" gives a new one\n", service.Visible(st.Name), service.Visible(st.Name))
		return nil
	})
}

func classReissue(c *cli, args []string) error {
	return studentArg(c, "class reissue", args, func(svc *service.Service, st service.ClassStudent) error {
		t, err := svc.IssueToken(st.AIID)
		if err != nil {
			return err
		}
		return printSlipLine(c, svc, t)
	})
}

func classSlips(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("class slips")
	out, url := new(string), new(string)
	declare(fs, classSlipsOptions(out, url))
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return usagef("class slips: give --out FILE.html")
	}
	return withService(*dbPath, func(svc *service.Service) error {
		f, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
		if err != nil {
			return fmt.Errorf("class slips: %w", err)
		}
		n, err := class.WriteSlips(svc, *url, f)
		if err != nil {
			f.Close()
			return fmt.Errorf("class slips: write %s: %w", *out, err)
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("class slips: write %s: %w", *out, err)
		}
		fmt.Fprintf(c.stdout, "wrote %d slips to %s (every student's token is new; earlier slips no longer work)\n", n, *out)
		return nil
	})
}

func applyServeSettings(svc *service.Service, f *serveFlags) error {
	cs, err := svc.ClassSettings()
	if err != nil {
		return err
	}
	switch f.deadline {
	case "":
	case "none":
		cs.Deadline = time.Time{}
	default:
		if cs.Deadline, err = service.ParseDeadline(f.deadline, time.Now()); err != nil {
			return usagef("class serve: --deadline: %v", err)
		}
	}
	if f.late != "" {
		cs.Late = f.late
	}
	return svc.SetClassSettings(cs)
}

func classServe(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("class serve")
	f := new(serveFlags)
	declare(fs, classServeOptions(f))
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if f.late != "" && f.late != service.LateRefuse && f.late != service.LateKeep {
		return usagef("class serve: --late is refuse or keep, not %q", f.late)
	}
	return withService(*dbPath, func(svc *service.Service) error {
		if err := applyServeSettings(svc, f); err != nil {
			return err
		}
		if f.noSandbox {
			fmt.Fprintln(c.stderr, "WARNING: --no-sandbox: hand-ins are built with fewer walls than the sandbox gives")
		}
		srv, err := class.New(svc, class.Options{Addr: f.addr, Insecure: f.insecure, NoSandbox: f.noSandbox, MaxConns: f.maxConns})
		if err != nil {
			return err
		}
		if err := srv.Listen(); err != nil {
			return err
		}
		if f.insecure {
			fmt.Fprintln(c.stderr, "WARNING: --insecure-http: tokens and programs cross the network in clear")
		}
		cs, err := svc.ClassSettings()
		if err != nil {
			return err
		}
		dl := "none"
		if !cs.Deadline.IsZero() {
			dl = cs.Deadline.Format(time.RFC3339)
		}
		fmt.Fprintf(c.stdout, "serving %s fingerprint %s deadline %s late %s (Ctrl-C stops)\n", srv.URL(), srv.Fingerprint(), dl, cs.Late)
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return srv.Serve(ctx)
	})
}

func classPublish(c *cli, args []string) error {
	fs, dbPath := c.dbFlags("class publish")
	off := new(bool)
	declare(fs, classPublishOptions(off))
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usagef("class publish: give one event ID")
	}
	id, err := strconv.ParseInt(rest[0], 10, 64)
	if err != nil {
		return usagef("class publish: %q is not an event ID", rest[0])
	}
	return withService(*dbPath, func(svc *service.Service) error {
		if err := svc.PublishEvent(id, !*off); err != nil {
			return err
		}
		word := "shown on"
		if *off {
			word = "hidden from"
		}
		fmt.Fprintf(c.stdout, "event %d is %s the class page\n", id, word)
		return nil
	})
}
