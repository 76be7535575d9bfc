// A file whose name is a go build flag: -toolexec="sh t.sh .go".
package main
