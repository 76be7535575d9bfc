// Package assets holds the files Ringside embeds in its binary: the app
// icon and the bot templates students start from.
package assets

import (
	_ "embed"
)

// Icon is the application icon, a 256×256 PNG.
//
//go:embed icon.png
var Icon []byte
