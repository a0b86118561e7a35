module github.com/trickchef/trickchef

go 1.26
