package storage

import (
	"database/sql"
	"errors"
	"fmt"
)

// scanner is a row to scan: *sql.Row or *sql.Rows.
type scanner interface{ Scan(...any) error }

// collect turns a row scanner into a reader of whole query results, to
// be called with a query's results: collect(scanAI)(db.r.Query(…)).
func collect[T any](scan func(scanner) (T, error)) func(*sql.Rows, error) ([]T, error) {
	return func(rows *sql.Rows, err error) ([]T, error) {
		if err != nil {
			return nil, err
		}
		var out []T
		for rows.Next() {
			v, err := scan(rows)
			if err != nil {
				rows.Close()
				return nil, err
			}
			out = append(out, v)
		}
		if err := closeRows(rows); err != nil {
			return nil, err
		}
		return out, nil
	}
}

// one scans the only row of a query. No row is ErrNotFound; errors are
// wrapped with what the row is (a format and its arguments).
func one[T any](scan func(scanner) (T, error), row *sql.Row, format string, args ...any) (T, error) {
	v, err := scan(row)
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		var zero T
		return zero, fmt.Errorf(format+": %w", append(args, err)...)
	}
	return v, nil
}
