export namespace acp {
	
	export class ConfigSelectGroup {
	    group: string;
	    name: string;
	    options: ConfigSelectOption[];
	    _meta?: number[];
	
	    static createFrom(source: any = {}) {
	        return new ConfigSelectGroup(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.group = source["group"];
	        this.name = source["name"];
	        this.options = this.convertValues(source["options"], ConfigSelectOption);
	        this._meta = source["_meta"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ConfigSelectOption {
	    value: string;
	    name: string;
	    description?: string;
	    _meta?: number[];
	
	    static createFrom(source: any = {}) {
	        return new ConfigSelectOption(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.value = source["value"];
	        this.name = source["name"];
	        this.description = source["description"];
	        this._meta = source["_meta"];
	    }
	}
	export class ConfigOption {
	    ID: string;
	    Name: string;
	    Description: string;
	    Category: string;
	    Type: string;
	    Value: string;
	    Bool: boolean;
	    Options: ConfigSelectOption[];
	    Groups: ConfigSelectGroup[];
	    Meta: number[];
	    Raw: number[];
	
	    static createFrom(source: any = {}) {
	        return new ConfigOption(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ID = source["ID"];
	        this.Name = source["Name"];
	        this.Description = source["Description"];
	        this.Category = source["Category"];
	        this.Type = source["Type"];
	        this.Value = source["Value"];
	        this.Bool = source["Bool"];
	        this.Options = this.convertValues(source["Options"], ConfigSelectOption);
	        this.Groups = this.convertValues(source["Groups"], ConfigSelectGroup);
	        this.Meta = source["Meta"];
	        this.Raw = source["Raw"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class SessionMode {
	    id: string;
	    name: string;
	    description?: string;
	    _meta?: number[];
	
	    static createFrom(source: any = {}) {
	        return new SessionMode(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.description = source["description"];
	        this._meta = source["_meta"];
	    }
	}
	export class SessionModeState {
	    currentModeId: string;
	    availableModes: SessionMode[];
	    _meta?: number[];
	
	    static createFrom(source: any = {}) {
	        return new SessionModeState(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.currentModeId = source["currentModeId"];
	        this.availableModes = this.convertValues(source["availableModes"], SessionMode);
	        this._meta = source["_meta"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace app {
	
	export class AgentCheck {
	    ok: boolean;
	    agentId: string;
	    agentName: string;
	    code?: string;
	    detail?: string;
	
	    static createFrom(source: any = {}) {
	        return new AgentCheck(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ok = source["ok"];
	        this.agentId = source["agentId"];
	        this.agentName = source["agentName"];
	        this.code = source["code"];
	        this.detail = source["detail"];
	    }
	}
	export class Artifact {
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
	
	    static createFrom(source: any = {}) {
	        return new Artifact(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.uri = source["uri"];
	        this.name = source["name"];
	        this.mimeType = source["mimeType"];
	        this.source = source["source"];
	        this.inside = source["inside"];
	        this.web = source["web"];
	        this.problem = source["problem"];
	        this.path = source["path"];
	        this.size = source["size"];
	        this.preview = source["preview"];
	    }
	}
	export class AuthState {
	    apiKeyStored: boolean;
	    store: string;
	    method: string;
	
	    static createFrom(source: any = {}) {
	        return new AuthState(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.apiKeyStored = source["apiKeyStored"];
	        this.store = source["store"];
	        this.method = source["method"];
	    }
	}
	export class BarState {
	    agentId: string;
	    agentName: string;
	    options: acp.ConfigOption[];
	    modes?: acp.SessionModeState;
	    known: boolean;
	    defaults: {[key: string]: any};
	
	    static createFrom(source: any = {}) {
	        return new BarState(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.agentId = source["agentId"];
	        this.agentName = source["agentName"];
	        this.options = this.convertValues(source["options"], acp.ConfigOption);
	        this.modes = this.convertValues(source["modes"], acp.SessionModeState);
	        this.known = source["known"];
	        this.defaults = source["defaults"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class BuildCard {
	    id: string;
	    title: string;
	    // Go type: time
	    created: any;
	    sessionIds: string[];
	    model: string;
	    dir: string;
	    name: string;
	    swatches: string[];
	    // Go type: time
	    changed: any;
	    status: string;
	    failing: number;
	
	    static createFrom(source: any = {}) {
	        return new BuildCard(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.created = this.convertValues(source["created"], null);
	        this.sessionIds = source["sessionIds"];
	        this.model = source["model"];
	        this.dir = source["dir"];
	        this.name = source["name"];
	        this.swatches = source["swatches"];
	        this.changed = this.convertValues(source["changed"], null);
	        this.status = source["status"];
	        this.failing = source["failing"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ThemeVersion {
	    checkpointId: string;
	    label: string;
	    // Go type: time
	    created: any;
	    theme?: theme.Theme;
	    error: string;
	    contrast: theme.Check[];
	
	    static createFrom(source: any = {}) {
	        return new ThemeVersion(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.checkpointId = source["checkpointId"];
	        this.label = source["label"];
	        this.created = this.convertValues(source["created"], null);
	        this.theme = this.convertValues(source["theme"], theme.Theme);
	        this.error = source["error"];
	        this.contrast = this.convertValues(source["contrast"], theme.Check);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Comparison {
	    before: ThemeVersion;
	    after: ThemeVersion;
	    changed: string[];
	
	    static createFrom(source: any = {}) {
	        return new Comparison(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.before = this.convertValues(source["before"], ThemeVersion);
	        this.after = this.convertValues(source["after"], ThemeVersion);
	        this.changed = source["changed"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class HistoryPage {
	    source: string;
	    messages: codexhome.Message[];
	    offset: number;
	    total: number;
	    skipped: number;
	
	    static createFrom(source: any = {}) {
	        return new HistoryPage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.source = source["source"];
	        this.messages = this.convertValues(source["messages"], codexhome.Message);
	        this.offset = source["offset"];
	        this.total = source["total"];
	        this.skipped = source["skipped"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ImportRequest {
	    fileName: string;
	    data: number[];
	    name?: string;
	
	    static createFrom(source: any = {}) {
	        return new ImportRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.fileName = source["fileName"];
	        this.data = source["data"];
	        this.name = source["name"];
	    }
	}
	export class ImportResult {
	    workspaceId: string;
	    dir: string;
	    title: string;
	    format: string;
	    mapped: theme.Mapping[];
	    derived: theme.Derivation[];
	    warnings: string[];
	
	    static createFrom(source: any = {}) {
	        return new ImportResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.workspaceId = source["workspaceId"];
	        this.dir = source["dir"];
	        this.title = source["title"];
	        this.format = source["format"];
	        this.mapped = this.convertValues(source["mapped"], theme.Mapping);
	        this.derived = this.convertValues(source["derived"], theme.Derivation);
	        this.warnings = source["warnings"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class IndexStatus {
	    building: boolean;
	    first: boolean;
	    done: number;
	    total: number;
	    changed: boolean;
	    error?: string;
	
	    static createFrom(source: any = {}) {
	        return new IndexStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.building = source["building"];
	        this.first = source["first"];
	        this.done = source["done"];
	        this.total = source["total"];
	        this.changed = source["changed"];
	        this.error = source["error"];
	    }
	}
	export class NewBuildRequest {
	    prompt: string;
	    options?: {[key: string]: any};
	
	    static createFrom(source: any = {}) {
	        return new NewBuildRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.prompt = source["prompt"];
	        this.options = source["options"];
	    }
	}
	export class OpenRequest {
	    workspaceId: string;
	    sessionId: string;
	    cwd: string;
	
	    static createFrom(source: any = {}) {
	        return new OpenRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.workspaceId = source["workspaceId"];
	        this.sessionId = source["sessionId"];
	        this.cwd = source["cwd"];
	    }
	}
	export class OptionChange {
	    workspaceId: string;
	    sessionId: string;
	    configId: string;
	    value: any;
	
	    static createFrom(source: any = {}) {
	        return new OptionChange(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.workspaceId = source["workspaceId"];
	        this.sessionId = source["sessionId"];
	        this.configId = source["configId"];
	        this.value = source["value"];
	    }
	}
	export class OptionResult {
	    applied: boolean;
	    configOptions: acp.ConfigOption[];
	    pending?: {[key: string]: any};
	    refused?: chat.Refusal;
	    reason?: string;
	
	    static createFrom(source: any = {}) {
	        return new OptionResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.applied = source["applied"];
	        this.configOptions = this.convertValues(source["configOptions"], acp.ConfigOption);
	        this.pending = source["pending"];
	        this.refused = this.convertValues(source["refused"], chat.Refusal);
	        this.reason = source["reason"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class PrewarmRequest {
	    workspaceId: string;
	    sessionId: string;
	    cwd: string;
	
	    static createFrom(source: any = {}) {
	        return new PrewarmRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.workspaceId = source["workspaceId"];
	        this.sessionId = source["sessionId"];
	        this.cwd = source["cwd"];
	    }
	}
	export class SelfTestPlan {
	    active: boolean;
	    prompt: string;
	    nav: string;
	    theme?: string;
	
	    static createFrom(source: any = {}) {
	        return new SelfTestPlan(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.active = source["active"];
	        this.prompt = source["prompt"];
	        this.nav = source["nav"];
	        this.theme = source["theme"];
	    }
	}
	export class SendRequest {
	    workspaceId: string;
	    sessionId: string;
	    cwd: string;
	    prompt: string;
	    attachments?: chat.Attachment[];
	
	    static createFrom(source: any = {}) {
	        return new SendRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.workspaceId = source["workspaceId"];
	        this.sessionId = source["sessionId"];
	        this.cwd = source["cwd"];
	        this.prompt = source["prompt"];
	        this.attachments = this.convertValues(source["attachments"], chat.Attachment);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SessionQuery {
	    search: string;
	    limit: number;
	    showInternal: boolean;
	    showHidden: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SessionQuery(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.search = source["search"];
	        this.limit = source["limit"];
	        this.showInternal = source["showInternal"];
	        this.showHidden = source["showHidden"];
	    }
	}
	export class SignInRequest {
	    turnId: string;
	    methodId: string;
	    apiKey: string;
	    cwd: string;
	
	    static createFrom(source: any = {}) {
	        return new SignInRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.turnId = source["turnId"];
	        this.methodId = source["methodId"];
	        this.apiKey = source["apiKey"];
	        this.cwd = source["cwd"];
	    }
	}
	export class SignInResult {
	    turnId: string;
	    auth: AuthState;
	
	    static createFrom(source: any = {}) {
	        return new SignInResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.turnId = source["turnId"];
	        this.auth = this.convertValues(source["auth"], AuthState);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class TurnStarted {
	    turnId: string;
	    workspaceId: string;
	    cwd: string;
	
	    static createFrom(source: any = {}) {
	        return new TurnStarted(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.turnId = source["turnId"];
	        this.workspaceId = source["workspaceId"];
	        this.cwd = source["cwd"];
	    }
	}

}

export namespace chat {
	
	export class Attachment {
	    name: string;
	    mimeType?: string;
	    data?: number[];
	    path?: string;
	
	    static createFrom(source: any = {}) {
	        return new Attachment(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.mimeType = source["mimeType"];
	        this.data = source["data"];
	        this.path = source["path"];
	    }
	}
	export class Refusal {
	    configId: string;
	    name?: string;
	    value: any;
	    current?: any;
	
	    static createFrom(source: any = {}) {
	        return new Refusal(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.configId = source["configId"];
	        this.name = source["name"];
	        this.value = source["value"];
	        this.current = source["current"];
	    }
	}

}

export namespace checkpoint {
	
	export class Summary {
	    id: string;
	    kind: string;
	    turnId?: string;
	    label: string;
	    // Go type: time
	    created: any;
	    restoredTo?: string;
	    files: number;
	    skipped: number;
	    size: number;
	
	    static createFrom(source: any = {}) {
	        return new Summary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.kind = source["kind"];
	        this.turnId = source["turnId"];
	        this.label = source["label"];
	        this.created = this.convertValues(source["created"], null);
	        this.restoredTo = source["restoredTo"];
	        this.files = source["files"];
	        this.skipped = source["skipped"];
	        this.size = source["size"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace codexhome {
	
	export class ToolCall {
	    name: string;
	    command?: string;
	    exitCode?: number;
	    output?: string;
	
	    static createFrom(source: any = {}) {
	        return new ToolCall(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.command = source["command"];
	        this.exitCode = source["exitCode"];
	        this.output = source["output"];
	    }
	}
	export class Message {
	    role: string;
	    text: string;
	    // Go type: time
	    time: any;
	    tool?: ToolCall;
	    notice?: string;
	
	    static createFrom(source: any = {}) {
	        return new Message(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.role = source["role"];
	        this.text = source["text"];
	        this.time = this.convertValues(source["time"], null);
	        this.tool = this.convertValues(source["tool"], ToolCall);
	        this.notice = source["notice"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ReasoningLevel {
	    effort: string;
	    description: string;
	
	    static createFrom(source: any = {}) {
	        return new ReasoningLevel(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.effort = source["effort"];
	        this.description = source["description"];
	    }
	}
	export class Model {
	    id: string;
	    name: string;
	    description: string;
	    defaultReasoningLevel: string;
	    reasoningLevels: ReasoningLevel[];
	
	    static createFrom(source: any = {}) {
	        return new Model(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.description = source["description"];
	        this.defaultReasoningLevel = source["defaultReasoningLevel"];
	        this.reasoningLevels = this.convertValues(source["reasoningLevels"], ReasoningLevel);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ModelList {
	    current: string;
	    source: string;
	    hint: string;
	    hintCode?: string;
	    hintDir?: string;
	    models: Model[];
	
	    static createFrom(source: any = {}) {
	        return new ModelList(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.current = source["current"];
	        this.source = source["source"];
	        this.hint = source["hint"];
	        this.hintCode = source["hintCode"];
	        this.hintDir = source["hintDir"];
	        this.models = this.convertValues(source["models"], Model);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Page {
	    id: string;
	    title: string;
	    cwd: string;
	    messages: Message[];
	    offset: number;
	    nextOffset: number;
	    done: boolean;
	    skipped: number;
	    truncated: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Page(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.cwd = source["cwd"];
	        this.messages = this.convertValues(source["messages"], Message);
	        this.offset = source["offset"];
	        this.nextOffset = source["nextOffset"];
	        this.done = source["done"];
	        this.skipped = source["skipped"];
	        this.truncated = source["truncated"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	

}

export namespace search {
	
	export class Span {
	    start: number;
	    end: number;
	
	    static createFrom(source: any = {}) {
	        return new Span(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.start = source["start"];
	        this.end = source["end"];
	    }
	}
	export class Result {
	    id: string;
	    title: string;
	    // Go type: time
	    updatedAt: any;
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
	
	    static createFrom(source: any = {}) {
	        return new Result(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.updatedAt = this.convertValues(source["updatedAt"], null);
	        this.cwd = source["cwd"];
	        this.path = source["path"];
	        this.archived = source["archived"];
	        this.internal = source["internal"];
	        this.hidden = source["hidden"];
	        this.unreadable = source["unreadable"];
	        this.snippet = source["snippet"];
	        this.marks = this.convertValues(source["marks"], Span);
	        this.role = source["role"];
	        this.message = source["message"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Results {
	    sessions: Result[];
	    hint: string;
	    partial: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Results(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sessions = this.convertValues(source["sessions"], Result);
	        this.hint = source["hint"];
	        this.partial = source["partial"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace settings {
	
	export class Agent {
	    id: string;
	    name: string;
	    kind: string;
	    command: string;
	    args: string[];
	    env: {[key: string]: string};
	    defaults: {[key: string]: any};
	    secrets: string[];
	
	    static createFrom(source: any = {}) {
	        return new Agent(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.kind = source["kind"];
	        this.command = source["command"];
	        this.args = source["args"];
	        this.env = source["env"];
	        this.defaults = source["defaults"];
	        this.secrets = source["secrets"];
	    }
	}
	export class MCPServer {
	    name: string;
	    type: string;
	    command: string;
	    args: string[];
	    env: {[key: string]: string};
	    url: string;
	    headers: {[key: string]: string};
	    disabled: boolean;
	
	    static createFrom(source: any = {}) {
	        return new MCPServer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.type = source["type"];
	        this.command = source["command"];
	        this.args = source["args"];
	        this.env = source["env"];
	        this.url = source["url"];
	        this.headers = source["headers"];
	        this.disabled = source["disabled"];
	    }
	}
	export class AgentList {
	    default: string;
	    agents: Agent[];
	    mcpServers: MCPServer[];
	
	    static createFrom(source: any = {}) {
	        return new AgentList(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.default = source["default"];
	        this.agents = this.convertValues(source["agents"], Agent);
	        this.mcpServers = this.convertValues(source["mcpServers"], MCPServer);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class Settings {
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
	
	    static createFrom(source: any = {}) {
	        return new Settings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.codexAcpVersion = source["codexAcpVersion"];
	        this.permissionPolicy = source["permissionPolicy"];
	        this.turnTimeoutSeconds = source["turnTimeoutSeconds"];
	        this.enterSends = source["enterSends"];
	        this.codexHome = source["codexHome"];
	        this.language = source["language"];
	        this.warmConnection = source["warmConnection"];
	        this.model = source["model"];
	        this.reasoningEffort = source["reasoningEffort"];
	        this.appearance = source["appearance"];
	    }
	}

}

export namespace theme {
	
	export class Check {
	    fg: string;
	    bg: string;
	    fgRole: string;
	    bgRole: string;
	    ratio: number;
	    aa: boolean;
	    aaa: boolean;
	    aaLarge: boolean;
	    apca: number;
	
	    static createFrom(source: any = {}) {
	        return new Check(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.fg = source["fg"];
	        this.bg = source["bg"];
	        this.fgRole = source["fgRole"];
	        this.bgRole = source["bgRole"];
	        this.ratio = source["ratio"];
	        this.aa = source["aa"];
	        this.aaa = source["aaa"];
	        this.aaLarge = source["aaLarge"];
	        this.apca = source["apca"];
	    }
	}
	export class Color {
	    R: number;
	    G: number;
	    B: number;
	    A: number;
	
	    static createFrom(source: any = {}) {
	        return new Color(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.R = source["R"];
	        this.G = source["G"];
	        this.B = source["B"];
	        this.A = source["A"];
	    }
	}
	export class Derivation {
	    role: string;
	    from?: string[];
	    rule: string;
	
	    static createFrom(source: any = {}) {
	        return new Derivation(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.role = source["role"];
	        this.from = source["from"];
	        this.rule = source["rule"];
	    }
	}
	export class Format {
	    id: string;
	    name: string;
	    files: string[];
	
	    static createFrom(source: any = {}) {
	        return new Format(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.files = source["files"];
	    }
	}
	export class PlannedFile {
	    path: string;
	    exists: boolean;
	
	    static createFrom(source: any = {}) {
	        return new PlannedFile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.exists = source["exists"];
	    }
	}
	export class InstallPlan {
	    target: string;
	    theme: string;
	    files: PlannedFile[];
	    note: string;
	    warning?: string;
	
	    static createFrom(source: any = {}) {
	        return new InstallPlan(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.target = source["target"];
	        this.theme = source["theme"];
	        this.files = this.convertValues(source["files"], PlannedFile);
	        this.note = source["note"];
	        this.warning = source["warning"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Installed {
	    installed: string[];
	    backups: string[];
	    note: string;
	
	    static createFrom(source: any = {}) {
	        return new Installed(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.installed = source["installed"];
	        this.backups = source["backups"];
	        this.note = source["note"];
	    }
	}
	export class Mapping {
	    role: string;
	    from: string;
	
	    static createFrom(source: any = {}) {
	        return new Mapping(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.role = source["role"];
	        this.from = source["from"];
	    }
	}
	
	export class Syntax {
	    keyword: Color;
	    string: Color;
	    comment: Color;
	    function: Color;
	    type: Color;
	    number: Color;
	    constant: Color;
	    variable: Color;
	    operator: Color;
	
	    static createFrom(source: any = {}) {
	        return new Syntax(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.keyword = this.convertValues(source["keyword"], Color);
	        this.string = this.convertValues(source["string"], Color);
	        this.comment = this.convertValues(source["comment"], Color);
	        this.function = this.convertValues(source["function"], Color);
	        this.type = this.convertValues(source["type"], Color);
	        this.number = this.convertValues(source["number"], Color);
	        this.constant = this.convertValues(source["constant"], Color);
	        this.variable = this.convertValues(source["variable"], Color);
	        this.operator = this.convertValues(source["operator"], Color);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class UI {
	    background: Color;
	    surface: Color;
	    text: Color;
	    mutedText: Color;
	    accent: Color;
	    border: Color;
	    selection: Color;
	    error: Color;
	    warning: Color;
	    success: Color;
	
	    static createFrom(source: any = {}) {
	        return new UI(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.background = this.convertValues(source["background"], Color);
	        this.surface = this.convertValues(source["surface"], Color);
	        this.text = this.convertValues(source["text"], Color);
	        this.mutedText = this.convertValues(source["mutedText"], Color);
	        this.accent = this.convertValues(source["accent"], Color);
	        this.border = this.convertValues(source["border"], Color);
	        this.selection = this.convertValues(source["selection"], Color);
	        this.error = this.convertValues(source["error"], Color);
	        this.warning = this.convertValues(source["warning"], Color);
	        this.success = this.convertValues(source["success"], Color);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Theme {
	    name: string;
	    appearance: string;
	    author?: string;
	    description?: string;
	    palette?: {[key: string]: Color};
	    ui: UI;
	    syntax: Syntax;
	    ansi: Color[];
	
	    static createFrom(source: any = {}) {
	        return new Theme(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.appearance = source["appearance"];
	        this.author = source["author"];
	        this.description = source["description"];
	        this.palette = this.convertValues(source["palette"], Color, true);
	        this.ui = this.convertValues(source["ui"], UI);
	        this.syntax = this.convertValues(source["syntax"], Syntax);
	        this.ansi = this.convertValues(source["ansi"], Color);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class State {
	    theme?: Theme;
	    error: string;
	    contrast: Check[];
	
	    static createFrom(source: any = {}) {
	        return new State(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.theme = this.convertValues(source["theme"], Theme);
	        this.error = source["error"];
	        this.contrast = this.convertValues(source["contrast"], Check);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class Target {
	    id: string;
	    name: string;
	    format: string;
	
	    static createFrom(source: any = {}) {
	        return new Target(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.format = source["format"];
	    }
	}
	

}

export namespace workspace {
	
	export class Meta {
	    id: string;
	    title: string;
	    // Go type: time
	    created: any;
	    sessionIds: string[];
	    model: string;
	    dir: string;
	
	    static createFrom(source: any = {}) {
	        return new Meta(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.created = this.convertValues(source["created"], null);
	        this.sessionIds = source["sessionIds"];
	        this.model = source["model"];
	        this.dir = source["dir"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

