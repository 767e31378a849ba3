package targets

// vscodePackage is the shape of the exported package.json, for the tests
// that read one back.
type vscodePackage struct {
	Name        string `json:"name"`
	DisplayName string `json:"displayName"`
	Description string `json:"description"`
	Version     string `json:"version"`
	Publisher   string `json:"publisher"`
	Engines     struct {
		VSCode string `json:"vscode"`
	} `json:"engines"`
	Categories  []string `json:"categories"`
	Contributes struct {
		Themes []vscodeContribution `json:"themes"`
	} `json:"contributes"`
}

type vscodeContribution struct {
	Label   string `json:"label"`
	UITheme string `json:"uiTheme"`
	Path    string `json:"path"`
}
