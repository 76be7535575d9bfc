module ringside

go 1.26.0
