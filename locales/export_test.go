package locales

import "testing"

// The checks of one voice, for the tests of package locales_test, which
// render texts through the games (and so import what imports this
// package).

// MoveNameProblem is moveNameProblem: why a move's name is not a noun
// phrase, or "".
func MoveNameProblem(name string) string { return moveNameProblem(name) }

// CardCaseProblems returns the check of TestCardCases: the card names of
// a text in the wrong case.
func CardCaseProblems(t *testing.T) func(text string) []string {
	t.Helper()
	return newCaseChecker(chefCardNames(t, newCatalog(t))).problems
}

// GameNameProblems returns the check of TestGameNamesNotDeclined: the
// games' names of a text that neither stand apart nor are declined.
func GameNameProblems(t *testing.T) func(text string) []string {
	t.Helper()
	names := russianGameNames(t, newCatalog(t))
	return func(text string) []string { return gameNameProblems(text, names) }
}
