export namespace acp {
	
	export interface ConfigSelectOption {
	    value: string;
	    name: string;
	    description?: string;
	    _meta?: number[];
	}
	export interface ConfigOption {
	    id: string;
	    name: string;
	    description?: string;
	    category?: string;
	    type: string;
	    currentValue: string;
	    options?: ConfigSelectOption[];
	    _meta?: number[];
	}
	export interface ConfigSelectGroup {
	    group: string;
	    name: string;
	    options: ConfigSelectOption[];
	    _meta?: number[];
	}
	
	export interface SessionMode {
	    id: string;
	    name: string;
	    description?: string;
	    _meta?: number[];
	}
	export interface SessionModeState {
	    currentModeId: string;
	    availableModes: SessionMode[];
	    _meta?: number[];
	}

}

export namespace app {
	
	export interface AgentCheck {
	    ok: boolean;
	    agentId: string;
	    agentName: string;
	    code?: string;
	    detail?: string;
	}
	export interface Artifact {
	    uri: string;
	    name: string;
	    mimeType?: string;
	    source: string;
	    inside: boolean;
	    web?: boolean;
	    problem?: string;
	    path?: string;
	    size?: number;
	    preview?: string;
	}
	export interface AuthState {
	    apiKeyStored: boolean;
	    store: string;
	    method: string;
	}
	export interface BarState {
	    agentId: string;
	    agentName: string;
	    options: {id: string; name?: string; description?: string | null; category?: string | null; type?: string; currentValue?: unknown; options?: unknown[]}[];
	    modes?: acp.SessionModeState;
	    known: boolean;
	    defaults: {[key: string]: string | boolean};
	    fixed: boolean;
	}
	export interface BuildCard {
	    id: string;
	    title: string;
	    created: string;
	    sessionIds: string[];
	    model: string;
	    dir: string;
	    followsTheme?: boolean;
	    name: string;
	    swatches: string[];
	    changed: string;
	    status: string;
	    failing: number;
	}
	export interface ColorTrial {
	    path: string;
	    hex: string;
	    oklch: colour.OKLCH;
	    pairs: contrast.Check[];
	    theme?: {[key: string]: unknown};
	    roles: theme.RoleValue[];
	    companionRoles?: theme.RoleValue[];
	}
	export interface ThemeVersion {
	    checkpointId: string;
	    label: string;
	    created: string;
	    theme?: {[key: string]: unknown};
	    error: string;
	    checks: contrast.Check[];
	    roles: theme.RoleValue[];
	    companion?: themewatch.State;
	}
	export interface Comparison {
	    before: ThemeVersion;
	    after: ThemeVersion;
	    changed: string[];
	}
	export interface DeletedBuild {
	    id: string;
	    title: string;
	    created: string;
	    deleted: string;
	    dir: string;
	    expires: string;
	}
	export interface EditColorRequest {
	    workspaceId: string;
	    path: string;
	    hex: string;
	}
	export interface EditorRole {
	    path: string;
	    label: string;
	    companion?: boolean;
	    group: string;
	    section: string;
	    help: string;
	    color: string;
	    locked: boolean;
	    derived: boolean;
	    rule?: string;
	    users?: string[];
	    follows?: string;
	    steps?: theme.PaletteSwatch[];
	}
	export interface EditorState {
	    roles: EditorRole[];
	    changed: string[];
	    canUndo: boolean;
	    canRedo: boolean;
	    undoLabel: string;
	    redoLabel: string;
	}
	export interface HistoryPage {
	    source: string;
	    messages: codexhome.Message[];
	    offset: number;
	    total: number;
	    skipped: number;
	}
	export interface ImportRequest {
	    fileName: string;
	    data: string;
	    name?: string;
	}
	export interface ImportResult {
	    workspaceId: string;
	    dir: string;
	    title: string;
	    format: string;
	    mapped: themeimport.Mapping[];
	    derived: themeimport.Derivation[];
	    warnings: string[];
	}
	export interface IndexStatus {
	    building: boolean;
	    first: boolean;
	    done: number;
	    total: number;
	    changed: boolean;
	    error?: string;
	}
	export interface LiveProgram {
	    target: string;
	    mode: 'told' | 'watches' | 'manual';
	    note: string;
	    on: boolean;
	    last?: live.Report;
	}
	export interface NewBuildRequest {
	    turnId: string;
	    prompt: string;
	    options?: {[key: string]: string | boolean};
	}
	export interface OpenRequest {
	    turnId: string;
	    workspaceId: string;
	    sessionId: string;
	    cwd: string;
	}
	export interface OptionChange {
	    workspaceId: string;
	    sessionId: string;
	    configId: string;
	    value: string | boolean;
	}
	export interface OptionResult {
	    applied: boolean;
	    configOptions: {id: string; name?: string; description?: string | null; category?: string | null; type?: string; currentValue?: unknown; options?: unknown[]}[];
	    pending?: {[key: string]: string | boolean};
	    refused?: chat.Refusal;
	    reason?: string;
	}
	export interface PaletteEntryRequest {
	    workspaceId: string;
	    name: string;
	    hex: string;
	}
	export interface PaletteRampRequest {
	    workspaceId: string;
	    name: string;
	    ramp?: theme.Ramp;
	}
	export interface PrewarmRequest {
	    workspaceId: string;
	    sessionId: string;
	    cwd: string;
	}
	export interface Published {
	    dir: string;
	    version: string;
	    next: publish.Meta;
	}
	export interface SendRequest {
	    turnId: string;
	    workspaceId: string;
	    sessionId: string;
	    cwd: string;
	    prompt: string;
	    attachments?: prompt.Attachment[];
	}
	export interface SessionQuery {
	    search: string;
	    limit: number;
	    showInternal: boolean;
	    showHidden: boolean;
	}
	export interface SignInRequest {
	    turnId: string;
	    retryTurnId: string;
	    methodId: string;
	    apiKey: string;
	    cwd: string;
	}
	export interface SignInResult {
	    turnId: string;
	    auth: AuthState;
	}
	export interface TemplateFolder {
	    dir: string;
	    name: string;
	    templates: string[];
	    error?: string;
	}
	export interface ThemeRef {
	    workspaceId: string;
	    versionId: string;
	    checkpointId: string;
	}
	
	export interface TryColorRequest {
	    workspaceId: string;
	    path: string;
	    hex: string;
	    oklch?: colour.OKLCH;
	}
	export interface TurnStarted {
	    turnId: string;
	    workspaceId: string;
	    cwd: string;
	    title?: string;
	}

}

export namespace apply {
	
	export interface PlannedFile {
	    path: string;
	    exists: boolean;
	    same: boolean;
	}
	export interface InstallPlan {
	    target: string;
	    theme: string;
	    files: PlannedFile[];
	    note: string;
	    steps: install.Step[];
	    backups: string;
	    warning?: string;
	    token: string;
	}
	export interface Installed {
	    installed: string[];
	    unchanged: string[];
	    backups: string[];
	    note: string;
	    steps: install.Step[];
	    undo: boolean;
	}
	
	export interface Undone {
	    target: string;
	    theme: string;
	    restored: string[];
	    removed: string[];
	}

}

export namespace chat {
	
	export interface Refusal {
	    configId: string;
	    name?: string;
	    value: any;
	    current?: any;
	}

}

export namespace checkpoint {
	
	export interface Summary {
	    id: string;
	    kind: string;
	    turnId?: string;
	    label: string;
	    created: string;
	    restoredTo?: string;
	    files: number;
	    skipped: number;
	    size: number;
	}

}

export namespace codexhome {
	
	export interface ToolCall {
	    name: string;
	    command?: string;
	    exitCode?: number;
	    output?: string;
	}
	export interface Message {
	    role: string;
	    text: string;
	    time: string;
	    tool?: ToolCall;
	    notice?: string;
	    note?: string;
	}
	export interface ReasoningLevel {
	    effort: string;
	    description: string;
	}
	export interface Model {
	    id: string;
	    name: string;
	    description: string;
	    defaultReasoningLevel: string;
	    reasoningLevels: ReasoningLevel[];
	}
	export interface ModelList {
	    current: string;
	    source: string;
	    hint: string;
	    hintCode?: string;
	    hintDir?: string;
	    models: Model[];
	}
	
	
	export interface TranscriptPage {
	    id: string;
	    title: string;
	    cwd: string;
	    messages: Message[];
	    offset: number;
	    nextOffset: number;
	    done: boolean;
	    skipped: number;
	    truncated: boolean;
	}

}

export namespace colour {
	
	export interface Color {
	    R: number;
	    G: number;
	    B: number;
	    A: number;
	}
	export interface OKLCH {
	    l: number;
	    c: number;
	    h: number;
	}

}

export namespace contrast {
	
	export interface Check {
	    fg: string;
	    bg: string;
	    fgRole: string;
	    bgRole: string;
	    ratio: number;
	    aa: boolean;
	    aaa: boolean;
	    aaLarge: boolean;
	    apca: number;
	    fgFollows?: string;
	    bgFollows?: string;
	}

}

export namespace damaged {
	
	export interface Notice {
	    path: string;
	    copy: string;
	    reason: string;
	    when: string;
	}

}

export namespace install {
	
	export interface Setting {
	    Syntax: string;
	    Path: string[];
	    Value: string;
	    Match: string;
	    Sectioned: boolean;
	    Section: string;
	    Multi: string;
	    Insert: string;
	    Before: string;
	    BeforeWhy: string;
	    Conflict: string;
	    ConflictWhy: string;
	    Within: string;
	    TOML: boolean;
	    NoCreate: string;
	    Add: string;
	    Header: string;
	    Create: string;
	    Blockers: {[key: string]: string};
	}
	export interface Step {
	    kind: string;
	    text: string;
	    file?: string;
	    state?: string;
	    old?: string;
	    new?: string;
	    reason?: string;
	    edit?: boolean;
	}
	export interface Target {
	    id: string;
	    name: string;
	    format: string;
	}

}

export namespace live {
	
	export interface Report {
	    build: string;
	    target: string;
	    written: string[];
	    reached: number;
	    kept: string[];
	    missing: string[];
	    error?: string;
	    at: string;
	    tookNs: number;
	}

}

export namespace prompt {
	
	export interface Attachment {
	    name: string;
	    mimeType?: string;
	    data?: string;
	    path?: string;
	}

}

export namespace publish {
	
	export interface Meta {
	    publisher: string;
	    version: string;
	    repository: string;
	    license: string;
	    description: string;
	}

}

export namespace search {
	
	export interface Span {
	    start: number;
	    end: number;
	}
	export interface Result {
	    id: string;
	    title: string;
	    updatedAt: string;
	    cwd: string;
	    path: string;
	    archived: boolean;
	    internal?: boolean;
	    hidden?: boolean;
	    unreadable?: string;
	    snippet: string;
	    marks?: Span[];
	    role?: string;
	    message: number;
	}
	export interface Results {
	    sessions: Result[];
	    hint: string;
	    hintCode?: string;
	    hintDir?: string;
	    partial: boolean;
	    titlesOnly?: string;
	    stale?: string;
	}

}

export namespace settings {
	
	export interface Agent {
	    id: string;
	    name: string;
	    kind: string;
	    command: string;
	    args: string[];
	    env: {[key: string]: string};
	    defaults: {[key: string]: string | boolean};
	    secrets: string[];
	    pinned: string;
	}
	export interface MCPServer {
	    name: string;
	    type: string;
	    command: string;
	    args: string[];
	    env: {[key: string]: string};
	    url: string;
	    headers: {[key: string]: string};
	    disabled: boolean;
	}
	export interface AgentList {
	    default: string;
	    agents: Agent[];
	    mcpServers: MCPServer[];
	}
	
	export interface Settings {
	    codexAcpVersion: string;
	    permissionPolicy: string;
	    turnTimeoutSeconds: number;
	    enterSends: boolean;
	    codexHome: string;
	    language: string;
	    warmConnection?: boolean;
	    model: string;
	    reasoningEffort: string;
	    appearance: string;
	    themeTools?: boolean;
	    templateFolders?: string[];
	}

}

export namespace targets {
	
	export interface Format {
	    id: string;
	    name: string;
	    files: string[];
	}

}

export namespace theme {
	
	export interface PaletteSwatch {
	    ref: string;
	    entry: string;
	    color: string;
	    step?: number;
	    users: string[];
	}
	export interface Ramp {
	    steps?: number[];
	    at?: number;
	}
	export interface Rule {
	    from: string;
	    best?: string;
	    on?: string;
	    mix?: string;
	    amount?: number;
	    alpha?: number;
	}
	export interface RoleValue {
	    path: string;
	    color: string;
	    set: boolean;
	    rule?: Rule;
	    ruleText?: string;
	    custom: boolean;
	    fontStyle?: string;
	    follows?: string;
	}
	
	export interface Scheme {
	    system: string;
	    name?: string;
	    author?: string;
	    slots: {[key: string]: colour.Color};
	}
	export interface SourceColor {
	    space: string;
	    components: number[];
	    srgb: colour.Color;
	}
	export interface Syntax {
	    keyword: colour.Color;
	    string: colour.Color;
	    comment: colour.Color;
	    function: colour.Color;
	    type: colour.Color;
	    number: colour.Color;
	    constant: colour.Color;
	    variable: colour.Color;
	    operator: colour.Color;
	}
	export interface ZedTarget {
	    style?: {[key: string]: unknown};
	}
	export interface VSCodeTarget {
	    colors?: {[key: string]: string};
	    tokenColors?: unknown[];
	    semanticTokenColors?: {[key: string]: unknown};
	    semanticHighlighting?: boolean;
	}
	export interface TargetOverrides {
	    vscode?: VSCodeTarget;
	    zed?: ZedTarget;
	    iterm2?: {[key: string]: SourceColor};
	}
	export interface UI {
	    background: colour.Color;
	    surface: colour.Color;
	    text: colour.Color;
	    mutedText: colour.Color;
	    accent: colour.Color;
	    border: colour.Color;
	    selection: colour.Color;
	    error: colour.Color;
	    warning: colour.Color;
	    success: colour.Color;
	}
	export interface Theme {
	    name: string;
	    appearance: string;
	    author?: string;
	    description?: string;
	    palette?: {[key: string]: colour.Color};
	    ui: UI;
	    syntax: Syntax;
	    ansi: colour.Color[];
	    scheme?: Scheme;
	    spaces?: {[key: string]: SourceColor};
	    targets?: TargetOverrides;
	}
	
	

}

export namespace themeimport {
	
	export interface Derivation {
	    role: string;
	    from?: string[];
	    rule: string;
	}
	export interface Mapping {
	    role: string;
	    from: string;
	}

}

export namespace themewatch {
	
	export interface State {
	    theme?: {[key: string]: unknown};
	    error: string;
	    checks: contrast.Check[];
	    roles: theme.RoleValue[];
	    companion?: State;
	}

}

export namespace versions {
	
	export interface Version {
	    id: string;
	    name: string;
	    created: string;
	}

}

export namespace workspace {
	
	export interface Meta {
	    id: string;
	    title: string;
	    created: string;
	    sessionIds: string[];
	    model: string;
	    dir: string;
	    followsTheme?: boolean;
	}

}

