package runner

import (
	"context"
	"fmt"

	"ringside/engine"
)

func connectLogin(ctx context.Context, opts engine.Options, st engine.State, bots []Bot, argvs [][]string, scale float64) ([]*seatConn, func(), error) {
	return nil, nil, fmt.Errorf("login transports are not built yet")
}
