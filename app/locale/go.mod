module github.com/jeandeaual/go-locale

go 1.21
