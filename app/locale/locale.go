// Package locale stands in for github.com/jeandeaual/go-locale, which
// Fyne asks for the user's languages while the program starts. That
// package passes "C.UTF-8" (Debian's default in containers) on as the
// language "C", which Fyne cannot parse, so every Ringside command printed
// three "Fyne error: Error parsing user locale C" lines, and every built-in
// bot wrote them into its stderr. This one reads the same environment
// variables (LC_ALL, LC_MESSAGES, LANG, then LANGUAGE, as gettext does)
// and treats C and POSIX, with or without an encoding, as no preference.
// Ringside replaces the module with it in go.mod.
package locale

import (
	"os"
	"strings"
)

// GetLocales returns the user's languages as BCP 47 tags ("en-GB"), most
// wanted first; none when the environment names none or only C/POSIX.
func GetLocales() ([]string, error) {
	var locale string
	for _, env := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if locale = os.Getenv(env); locale != "" {
			break
		}
	}
	if neutral(locale) {
		return nil, nil
	}
	list := locale
	if langs := os.Getenv("LANGUAGE"); langs != "" {
		list = langs
	}
	var out []string
	for _, l := range strings.Split(list, ":") {
		if tag := toTag(l); tag != "" {
			out = append(out, tag)
		}
	}
	return out, nil
}

// GetLocale returns the user's first language, "" when there is none.
func GetLocale() (string, error) {
	all, err := GetLocales()
	if len(all) == 0 {
		return "", err
	}
	return all[0], err
}

// GetLanguage returns the language part of GetLocale ("en").
func GetLanguage() (string, error) {
	l, err := GetLocale()
	lang, _, _ := strings.Cut(l, "-")
	return lang, err
}

// GetRegion returns the region part of GetLocale ("GB"), "" for none.
func GetRegion() (string, error) {
	l, err := GetLocale()
	_, region, _ := strings.Cut(l, "-")
	return region, err
}

// neutral reports a locale that names no language: "", C and POSIX, with
// or without an encoding or modifier ("C.UTF-8").
func neutral(l string) bool {
	base := strings.ToUpper(strip(l))
	return base == "" || base == "C" || base == "POSIX"
}

// strip drops a locale's encoding and modifier: "de_DE.UTF-8@euro" → "de_DE".
func strip(l string) string {
	l, _, _ = strings.Cut(l, "@")
	l, _, _ = strings.Cut(l, ".")
	return strings.TrimSpace(l)
}

// toTag turns "de_DE.UTF-8" into "de-DE"; neutral locales into "".
func toTag(l string) string {
	if neutral(l) {
		return ""
	}
	return strings.ReplaceAll(strip(l), "_", "-")
}
