package locale

import (
	"strings"
	"testing"
)

func TestGetLocales(t *testing.T) {
	tests := []struct {
		lcAll, lang, language string
		want                  string
	}{
		{"", "C.UTF-8", "", ""},
		{"", "C", "", ""},
		{"", "POSIX", "de", ""},
		{"", "c.utf8", "", ""},
		{"", "", "", ""},
		{"", "de_DE.UTF-8", "", "de-DE"},
		{"", "de_DE.UTF-8@euro", "", "de-DE"},
		{"fr_FR.UTF-8", "de_DE.UTF-8", "", "fr-FR"},
		{"", "en_GB.UTF-8", "en_GB:fr:C", "en-GB,fr"},
	}
	for _, tt := range tests {
		t.Setenv("LC_ALL", tt.lcAll)
		t.Setenv("LC_MESSAGES", "")
		t.Setenv("LANG", tt.lang)
		t.Setenv("LANGUAGE", tt.language)
		got, err := GetLocales()
		if err != nil || strings.Join(got, ",") != tt.want {
			t.Errorf("LC_ALL=%q LANG=%q LANGUAGE=%q: %v, %v; want %q", tt.lcAll, tt.lang, tt.language, got, err, tt.want)
		}
	}
}
