// A stand-in for the Go side of the Wails bridge: the objects Wails injects
// as window.go.app.App and window.runtime. Tests drive the real api.ts and
// wailsjs wrappers through it, so binding names and event plumbing are covered.
import { vi, type Mock } from 'vitest';

type Listener = { cb: (...data: unknown[]) => void; max: number };

export interface FakeWails {
  App: Record<string, Mock>;
  listeners: Map<string, Listener[]>;
  emit(name: string, ...data: unknown[]): void;
}

export const bindingNames = [
  'Agents', 'AnswerPermission', 'ApplyTargets', 'ApplyTheme', 'Artifacts', 'Authenticate', 'Builds',
  'Cancel', 'ChatHistory', 'CheckAgent', 'Checkpoints', 'ChooseFolder', 'CompareCheckpoint', 'DeleteBuild',
  'DuplicateBuild', 'ExportChat', 'ExportTheme', 'ExportTranscript', 'GetAuthState', 'GetSettings',
  'HideSession', 'ImportTheme', 'Models', 'NewBuild', 'OpenArtifact', 'OpenChat', 'OpenLink', 'OpenPath',
  'OpenWorkspaceFolder', 'PlanApply', 'Prewarm', 'Release', 'RenameBuild', 'RenameSession', 'RestoreBuild',
  'RestoreCheckpoint', 'SaveAPIKey', 'SaveAgents', 'SaveBuildDefaults', 'SaveSettings', 'SearchStatus',
  'SelfTest', 'SelfTestReport', 'Send', 'SessionBar', 'Sessions', 'SetBuildAgent', 'SetSessionOption',
  'SignIn', 'SignOut', 'Theme', 'TranscriptPage', 'VSCodeTheme', 'Workspaces',
];

export function installWails(impl: Partial<Record<string, (...args: any[]) => unknown>> = {}): FakeWails {
  const App: Record<string, Mock> = {};
  for (const name of bindingNames) {
    App[name] = vi.fn(async (...args: unknown[]) => {
      const f = impl[name];
      if (!f) throw new Error(`unexpected call to ${name}(${JSON.stringify(args)})`);
      return f(...args);
    });
  }
  const listeners = new Map<string, Listener[]>();
  const runtime = {
    EventsOnMultiple(name: string, cb: (...data: unknown[]) => void, max: number) {
      const l = { cb, max };
      listeners.set(name, [...(listeners.get(name) ?? []), l]);
      return () => listeners.set(name, (listeners.get(name) ?? []).filter((x) => x !== l));
    },
    EventsOff(name: string) {
      listeners.delete(name);
    },
  };
  const w = window as unknown as Record<string, unknown>;
  w.go = { app: { App } };
  w.runtime = runtime;
  return {
    App,
    listeners,
    emit(name, ...data) {
      for (const l of listeners.get(name) ?? []) l.cb(...data);
    },
  };
}

export function uninstallWails(): void {
  const w = window as unknown as Record<string, unknown>;
  delete w.go;
  delete w.runtime;
}

/** Resolves after pending promise callbacks ran. */
export async function flush(times = 5): Promise<void> {
  for (let i = 0; i < times; i++) await Promise.resolve();
  await new Promise((r) => setTimeout(r, 0));
}
