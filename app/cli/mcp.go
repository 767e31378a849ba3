package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"cdxtheme/core/handedit"
	"cdxtheme/core/mcp"
	"cdxtheme/core/workspace"
)

func init() {
	register(command{
		name:    "mcp",
		summary: "serve the theme tools to an agent over MCP (stdio) for one workspace",
		run:     runMCP,
	})
}

// Where the MCP server reads its requests; a variable so tests can drive it.
var mcpStdin io.Reader = os.Stdin

const mcpSynopsis = "cdxtheme mcp [--edits FILE] WORKSPACE"

func runMCP(ctx context.Context, env *Env, args []string) int {
	fs := newCodexFlags("mcp", mcpSynopsis, env)
	edits := fs.String("edits", "", "the app's hand-edit record of the workspace (locked colours); default: the app's own record when WORKSPACE is one of its workspaces")
	usage := fs.Usage
	fs.Usage = func() {
		usage()
		fmt.Fprintf(env.Stderr, "\nWORKSPACE is a workspace id or a folder. The server reads requests as\n"+
			"newline-delimited JSON-RPC on stdin and answers on stdout (MCP %s):\n"+
			"initialize, tools/list, tools/call of %s, %s, %s and %s.\n"+
			"It only reads the workspace; it never writes.\n",
			mcp.ProtocolVersion, mcp.ToolCheck, mcp.ToolRender, mcp.ToolRoles, mcp.ToolExport)
	}
	pos, code := parseCodexFlags(fs, args)
	if code >= 0 {
		return code
	}
	if len(pos) != 1 {
		return codexUsage(env, fs, "want one WORKSPACE, got %d arguments", len(pos))
	}
	dir, record, err := mcpWorkspace(pos[0])
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme mcp: %v\n", err)
		return ExitError
	}
	if *edits != "" {
		record = *edits
	}
	srv, err := mcp.New(mcp.Config{Dir: dir, EditsFile: record, Version: clientVersion()})
	if err != nil {
		fmt.Fprintf(env.Stderr, "cdxtheme mcp: %v\n", err)
		return ExitError
	}
	if err := srv.Serve(ctx, mcpStdin, env.exact()); err != nil && ctx.Err() == nil {
		fmt.Fprintf(env.Stderr, "cdxtheme mcp: %v\n", err)
		return ExitError
	}
	return ExitOK
}

// mcpWorkspace is the folder an argument names (a folder, or a workspace
// id) and the app's hand-edit record for it when it is one of the app's
// workspaces.
func mcpWorkspace(arg string) (dir, record string, err error) {
	if st, serr := os.Stat(arg); serr == nil {
		if !st.IsDir() {
			return "", "", fmt.Errorf("%s is not a folder", arg)
		}
		if dir, err = filepath.Abs(arg); err != nil {
			return "", "", err
		}
	} else if workspace.ValidID(arg) {
		m, oerr := workspace.Open(workspace.Root(), arg)
		if oerr != nil {
			return "", "", oerr
		}
		dir = m.Dir
	} else {
		return "", "", fmt.Errorf("%q is neither a folder nor a workspace id", arg)
	}
	if id := filepath.Base(dir); filepath.Dir(dir) == workspace.Root() && workspace.ValidID(id) {
		record = handedit.RecordPath(id)
	}
	return dir, record, nil
}
