// Package assets holds the files Ringside embeds in its binary: the app
// icon and the bot templates students start from.
package assets

import (
	"embed"
)

// Icon is the application icon, a 256×256 PNG.
//
//go:embed icon.png
var Icon []byte

// Templates holds a small working bot per game and language, under
// templates/GAME/LANGUAGE/ ("templates/grip/python"). A file whose name
// ends in ".template" is written without that ending: Go does not embed a
// go.mod, which would make its folder a module of its own.
//
//go:embed all:templates
var Templates embed.FS
