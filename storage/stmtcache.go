package storage

import (
	"context"
	"database/sql"
	"database/sql/driver"

	"modernc.org/sqlite"
)

// driverName is modernc's SQLite driver with a cache of prepared
// statements on each connection. database/sql hands a query without
// arguments bound in advance straight to the driver, which parses and
// compiles it every time: the same few dozen queries, read again for every
// row of a screen, spent more time in SQLite's parser than in the reads.
const driverName = "sqlite-ringside"

// maxCachedStmts bounds a connection's cache. Ringside's queries are a
// fixed set; one built with a varying text only misses the cache.
const maxCachedStmts = 256

func init() { sql.Register(driverName, cachingDriver{&sqlite.Driver{}}) }

type cachingDriver struct{ d driver.Driver }

func (c cachingDriver) Open(name string) (driver.Conn, error) {
	conn, err := c.d.Open(name)
	if err != nil {
		return nil, err
	}
	if _, ok := conn.(sqliteConn); !ok {
		return conn, nil // another driver version: no cache rather than a broken one
	}
	return &cachingConn{Conn: conn, stmts: map[string]*cachedStmt{}}, nil
}

// The interfaces modernc's connection implements and database/sql looks
// for; cachingConn passes each of them through.
type sqliteConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// cachingConn is one connection with its prepared statements. database/sql
// never uses a connection from two goroutines at once, so it needs no lock.
type cachingConn struct {
	driver.Conn
	stmts map[string]*cachedStmt
}

type cachedStmt struct {
	stmt interface {
		driver.Stmt
		driver.StmtExecContext
		driver.StmtQueryContext
	}
	// busy: rows of it are open (a transaction may run another query
	// meanwhile); the same query then goes the uncached way.
	busy bool
}

var _ sqliteConn = (*cachingConn)(nil)

func (c *cachingConn) inner() sqliteConn { return c.Conn.(sqliteConn) }

// cached is query's statement, prepared on first use; nil when it is in
// use, the cache is full, or it does not prepare (the uncached way then
// reports the error as the driver words it).
func (c *cachingConn) cached(ctx context.Context, query string) *cachedStmt {
	if s, ok := c.stmts[query]; ok {
		if s.busy {
			return nil
		}
		return s
	}
	if len(c.stmts) >= maxCachedStmts {
		return nil
	}
	st, err := c.inner().PrepareContext(ctx, query)
	if err != nil {
		return nil
	}
	s, ok := st.(interface {
		driver.Stmt
		driver.StmtExecContext
		driver.StmtQueryContext
	})
	if !ok {
		st.Close()
		return nil
	}
	c.stmts[query] = &cachedStmt{stmt: s}
	return c.stmts[query]
}

func (c *cachingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	s := c.cached(ctx, query)
	if s == nil {
		return c.inner().QueryContext(ctx, query, args)
	}
	rows, err := s.stmt.QueryContext(ctx, args)
	if err != nil {
		return nil, err
	}
	s.busy = true
	return &cachedRows{Rows: rows, s: s}, nil
}

func (c *cachingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	s := c.cached(ctx, query)
	if s == nil {
		return c.inner().ExecContext(ctx, query, args)
	}
	return s.stmt.ExecContext(ctx, args)
}

func (c *cachingConn) Close() error {
	for q, s := range c.stmts {
		s.stmt.Close()
		delete(c.stmts, q)
	}
	return c.Conn.Close()
}

func (c *cachingConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	return c.inner().BeginTx(ctx, opts)
}

func (c *cachingConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.inner().PrepareContext(ctx, query)
}

func (c *cachingConn) Ping(ctx context.Context) error { return c.inner().Ping(ctx) }

func (c *cachingConn) ResetSession(ctx context.Context) error { return c.inner().ResetSession(ctx) }

func (c *cachingConn) IsValid() bool { return c.inner().IsValid() }

// cachedRows gives its statement back when closed.
type cachedRows struct {
	driver.Rows
	s *cachedStmt
}

func (r *cachedRows) Close() error {
	r.s.busy = false
	return r.Rows.Close()
}
