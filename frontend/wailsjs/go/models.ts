export namespace app {
	
	export class ApplyResult {
	    installed: string[];
	    backups: string[];
	
	    static createFrom(source: any = {}) {
	        return new ApplyResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.installed = source["installed"];
	        this.backups = source["backups"];
	    }
	}
	export class ModelsResult {
	    current: string;
	    source: string;
	    hint: string;
	    models: any[];
	
	    static createFrom(source: any = {}) {
	        return new ModelsResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.current = source["current"];
	        this.source = source["source"];
	        this.hint = source["hint"];
	        this.models = source["models"];
	    }
	}
	export class NewBuildRequest {
	    prompt: string;
	    model: string;
	    effort: string;
	
	    static createFrom(source: any = {}) {
	        return new NewBuildRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.prompt = source["prompt"];
	        this.model = source["model"];
	        this.effort = source["effort"];
	    }
	}
	export class NewBuildResult {
	    turnId: string;
	    workspaceId: string;
	    cwd: string;
	
	    static createFrom(source: any = {}) {
	        return new NewBuildResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.turnId = source["turnId"];
	        this.workspaceId = source["workspaceId"];
	        this.cwd = source["cwd"];
	    }
	}
	export class SendRequest {
	    workspaceId: string;
	    sessionId: string;
	    cwd: string;
	    prompt: string;
	    model: string;
	    effort: string;
	
	    static createFrom(source: any = {}) {
	        return new SendRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.workspaceId = source["workspaceId"];
	        this.sessionId = source["sessionId"];
	        this.cwd = source["cwd"];
	        this.prompt = source["prompt"];
	        this.model = source["model"];
	        this.effort = source["effort"];
	    }
	}
	export class SessionsResult {
	    sessions: any[];
	    hint: string;
	
	    static createFrom(source: any = {}) {
	        return new SessionsResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sessions = source["sessions"];
	        this.hint = source["hint"];
	    }
	}
	export class ThemeState {
	    workspaceId: string;
	    theme: any;
	    error: string;
	    contrast: any[];
	
	    static createFrom(source: any = {}) {
	        return new ThemeState(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.workspaceId = source["workspaceId"];
	        this.theme = source["theme"];
	        this.error = source["error"];
	        this.contrast = source["contrast"];
	    }
	}
	export class TranscriptPage {
	    id: string;
	    title: string;
	    cwd: string;
	    messages: any[];
	    offset: number;
	    nextOffset: number;
	    done: boolean;
	    skipped: number;
	
	    static createFrom(source: any = {}) {
	        return new TranscriptPage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.cwd = source["cwd"];
	        this.messages = source["messages"];
	        this.offset = source["offset"];
	        this.nextOffset = source["nextOffset"];
	        this.done = source["done"];
	        this.skipped = source["skipped"];
	    }
	}
	export class Workspace {
	    id: string;
	    title: string;
	    created: string;
	    sessionIds: string[];
	    model: string;
	    dir: string;
	
	    static createFrom(source: any = {}) {
	        return new Workspace(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.created = source["created"];
	        this.sessionIds = source["sessionIds"];
	        this.model = source["model"];
	        this.dir = source["dir"];
	    }
	}

}

export namespace settings {
	
	export class Settings {
	    agentCommand: string;
	    codexAcpVersion: string;
	    permissionPolicy: string;
	    turnTimeoutSeconds: number;
	    enterSends: boolean;
	    codexHome: string;
	    language: string;
	    warmConnection?: boolean;
	    model: string;
	    reasoningEffort: string;
	
	    static createFrom(source: any = {}) {
	        return new Settings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.agentCommand = source["agentCommand"];
	        this.codexAcpVersion = source["codexAcpVersion"];
	        this.permissionPolicy = source["permissionPolicy"];
	        this.turnTimeoutSeconds = source["turnTimeoutSeconds"];
	        this.enterSends = source["enterSends"];
	        this.codexHome = source["codexHome"];
	        this.language = source["language"];
	        this.warmConnection = source["warmConnection"];
	        this.model = source["model"];
	        this.reasoningEffort = source["reasoningEffort"];
	    }
	}

}

