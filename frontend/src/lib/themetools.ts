// The app's own MCP tools (`cdxtheme mcp`, Go's core/mcp) as the chat
// shows them: a check card lists the failing pairs, a render card the
// picture. Read from the tool call's raw input and output as the agent
// reports them (codex-acp 2.x: rawInput {server, tool, arguments},
// rawOutput {result: {content, structuredContent}}); everything here is
// the agent's data, so every field is checked and bounded.

export const themeServer = 'cdxtheme';
export type ThemeToolName = 'theme_check' | 'theme_render' | 'theme_roles' | 'theme_export';
const names: ThemeToolName[] = ['theme_check', 'theme_render', 'theme_roles', 'theme_export'];

export interface PairView {
  fg: string;
  fgColor: string;
  bg: string;
  bgColor: string;
  ratio: number;
  fix?: { role: string; color: string; ratio: number };
}

export interface ThemeToolView {
  tool: ThemeToolName;
  check?: { valid: boolean; passes: boolean; target: number; checked: number; failing: PairView[]; problems: { role: string; reason: string }[]; lockedChanged: string[] };
  /** The rendered PNG as a data: URL. */
  image?: string;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown, max = 200): string => (typeof v === 'string' ? v.slice(0, max) : '');
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const hex = (v: unknown): string => (typeof v === 'string' && /^#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?$/.test(v) ? v : '');

/** The largest picture shown (the server sends about 100 KB). */
export const maxImage = 2 << 20;
const maxPairs = 50;

/** Which of the app's tools a call is, from its raw input or its title; null for any other tool. */
export function themeToolName(rawInput: unknown, title: string): ThemeToolName | null {
  if (isObj(rawInput) && rawInput.server === themeServer && names.includes(rawInput.tool as ThemeToolName)) {
    return rawInput.tool as ThemeToolName;
  }
  const m = /(?:^|[^A-Za-z0-9])cdxtheme[._/:]+(theme_(?:check|render|roles|export))\b/.exec(title);
  return m ? (m[1] as ThemeToolName) : null;
}

/** The MCP CallToolResult inside a raw output: at its top or under result. */
function callResult(rawOutput: unknown): Record<string, unknown> | null {
  if (!isObj(rawOutput)) return null;
  if (Array.isArray(rawOutput.content) || isObj(rawOutput.structuredContent)) return rawOutput;
  if (isObj(rawOutput.result)) return callResult(rawOutput.result);
  return null;
}

function side(v: unknown): { role: string; color: string } {
  return isObj(v) ? { role: str(v.role, 80), color: hex(v.color) } : { role: '', color: '' };
}

/** The card's view of one of the app's tool calls; null for any other tool. */
export function themeTool(rawInput: unknown, rawOutput: unknown, title: string): ThemeToolView | null {
  const tool = themeToolName(rawInput, title);
  if (!tool) return null;
  const view: ThemeToolView = { tool };
  const res = callResult(rawOutput);
  if (!res) return view;
  if (tool === 'theme_check' && isObj(res.structuredContent)) {
    const s = res.structuredContent;
    const failing = (Array.isArray(s.failing) ? s.failing : []).slice(0, maxPairs).filter(isObj).map((f): PairView => {
      const fg = side(f.foreground);
      const bg = side(f.background);
      const p: PairView = { fg: fg.role, fgColor: fg.color, bg: bg.role, bgColor: bg.color, ratio: num(f.ratio) };
      if (isObj(f.fix) && hex(f.fix.color)) p.fix = { role: str(f.fix.role, 80), color: hex(f.fix.color), ratio: num(f.fix.ratio) };
      return p;
    });
    const problems = (Array.isArray(s.problems) ? s.problems : []).slice(0, maxPairs).filter(isObj).map((p) => ({ role: str(p.role, 80), reason: str(p.reason, 300) }));
    const lockedChanged = (Array.isArray(s.locked) ? s.locked : []).filter((l) => isObj(l) && l.kept === false).map((l) => str((l as Record<string, unknown>).role, 80)).slice(0, maxPairs);
    view.check = { valid: s.valid === true, passes: s.passes === true, target: num(s.target), checked: num(s.checked), failing, problems, lockedChanged };
  }
  if (tool === 'theme_render' && Array.isArray(res.content)) {
    for (const c of res.content) {
      if (isObj(c) && c.type === 'image' && c.mimeType === 'image/png' && typeof c.data === 'string' && c.data.length <= maxImage && /^[A-Za-z0-9+/]+={0,2}$/.test(c.data)) {
        view.image = 'data:image/png;base64,' + c.data;
        break;
      }
    }
  }
  return view;
}
