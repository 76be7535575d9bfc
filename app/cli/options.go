package cli

import (
	"flag"
	"fmt"
	"strings"
	"time"
)

// option is one flag of a command. The same option declares the flag on
// the command's flag set and writes its line in "ringside help", so the
// help cannot leave a flag out or state a default other than the one the
// flag has: a default that is one value is printed from that value, one
// that is a rule (the service's …Words) is given in words.
type option struct {
	name    string // without the dashes
	arg     string // the value's placeholder ("N"); "" for a switch
	usage   string // what it does, without its default
	def     string // the default, as help states it
	declare func(fs *flag.FlagSet)
	// literal says def is the flag's default value printed, not words
	// (a test holds the two together).
	literal bool
}

// valued is an option whose default is value printed, or words when
// given.
func valued(name, arg, usage string, value any, words []string, declare func(fs *flag.FlagSet)) option {
	if len(words) > 0 {
		return option{name: name, arg: arg, usage: usage, def: strings.Join(words, " "), declare: declare}
	}
	return option{name: name, arg: arg, usage: usage, def: fmt.Sprint(value), declare: declare, literal: true}
}

// intOption is an int flag whose default is value, or words when given.
func intOption(p *int, name, arg string, value int, usage string, words ...string) option {
	return valued(name, arg, usage, value, words, func(fs *flag.FlagSet) { fs.IntVar(p, name, value, "") })
}

// int64Option is an int64 flag whose default is value, or words when given.
func int64Option(p *int64, name, arg string, value int64, usage string, words ...string) option {
	return valued(name, arg, usage, value, words, func(fs *flag.FlagSet) { fs.Int64Var(p, name, value, "") })
}

// floatOption is a float64 flag whose default is value, or words when
// given.
func floatOption(p *float64, name, arg string, value float64, usage string, words ...string) option {
	return valued(name, arg, usage, value, words, func(fs *flag.FlagSet) { fs.Float64Var(p, name, value, "") })
}

// stringOption is a string flag whose default is value, or words when
// given (an empty value needs words).
func stringOption(p *string, name, arg, value, usage string, words ...string) option {
	return valued(name, arg, usage, value, words, func(fs *flag.FlagSet) { fs.StringVar(p, name, value, "") })
}

// durationOption is a duration flag whose default is value, or words when
// given.
func durationOption(p *time.Duration, name, arg string, value time.Duration, usage string, words ...string) option {
	return valued(name, arg, usage, shortDuration(value), words, func(fs *flag.FlagSet) { fs.DurationVar(p, name, value, "") })
}

// shortDuration is d as people write it: "2m", not Go's "2m0s".
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// boolOption is a switch, off unless given; words say what off means
// where "off" would mislead (an edit's switch leaves things unchanged).
func boolOption(p *bool, name, usage string, words ...string) option {
	def := "off"
	if len(words) > 0 {
		def = strings.Join(words, " ")
	}
	return option{name: name, usage: usage, def: def, declare: func(fs *flag.FlagSet) { fs.BoolVar(p, name, false, "") }}
}

// listOption is a repeatable flag; def says what none of it means.
func listOption(p *listFlag, name, arg, usage, def string) option {
	return option{name: name, arg: arg, usage: usage, def: def, declare: func(fs *flag.FlagSet) { fs.Var(p, name, "") }}
}

// declare declares every option on fs.
func declare(fs *flag.FlagSet, opts []option) {
	for _, o := range opts {
		o.declare(fs)
	}
}

// required is the start of the def of a flag that has no default: the
// command needs it.
const required = "required"

// helpWidth is the widest line of an option's help.
const helpWidth = 79

// optionsHelp is the help's lines for opts, indent spaces in: each flag
// with its placeholder, then what it does and its default, wrapped at
// helpWidth in a column after the widest flag (a flag wider than col
// puts its words on the next line).
func optionsHelp(indent, col int, opts []option) string {
	var b strings.Builder
	pad := strings.Repeat(" ", indent+col)
	for _, o := range opts {
		head := "--" + o.name
		if o.arg != "" {
			head += " " + o.arg
		}
		line := strings.Repeat(" ", indent) + head
		if len(head) < col {
			line += strings.Repeat(" ", col-len(head))
		} else {
			b.WriteString(line + "\n")
			line = pad
		}
		words := o.usage + " (default: " + o.def + ")"
		if strings.HasPrefix(o.def, required) {
			words = o.usage + " (" + o.def + ")"
		}
		first := true
		for _, w := range strings.Fields(words) {
			if !first && len([]rune(line))+1+len([]rune(w)) > helpWidth {
				b.WriteString(line + "\n")
				line, first = pad, true
			}
			if !first {
				line += " "
			}
			line += w
			first = false
		}
		b.WriteString(line + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}
