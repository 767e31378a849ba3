// A stand-in for the Go side of the Wails bridge: the objects Wails injects
// as window.go.app.<Service> and window.runtime. Tests drive the real api.ts
// and wailsjs wrappers through it, so binding names and event plumbing are
// covered. Method names are unique across the services, so a test names a
// binding by its method alone (bound.Send, installWails({ Send })).
import { vi, type Mock } from 'vitest';

type Listener = { cb: (...data: unknown[]) => void; max: number };

export interface FakeWails {
  bound: Record<string, Mock>;
  listeners: Map<string, Listener[]>;
  /** What the page emitted towards Go (EventsEmit), in order. */
  sent: unknown[][];
  /** Has the fake Go side answer an event the page emits (as Go's runtime.EventsOn does). */
  answer(name: string, cb: (...data: unknown[]) => void): void;
  emit(name: string, ...data: unknown[]): void;
}

/** The bound services and their methods, as main binds them (app.Bound). */
export const services: Record<string, string[]> = {
  Agents: ['Agents', 'GetAuthState', 'SaveAPIKey', 'SaveAgents', 'SetBuildAgent', 'SignIn', 'SignOut'],
  Builds: ['Artifacts', 'Builds', 'Checkpoints', 'CompareCheckpoint', 'DeleteBuild', 'DeletedBuilds', 'DuplicateBuild', 'OpenArtifact', 'OpenPath', 'OpenWorkspaceFolder', 'PurgeBuild', 'RenameBuild', 'RestoreBuild', 'RestoreCheckpoint', 'Workspaces'],
  Chats: ['ChatHistory', 'CheckAgent', 'ExportChat', 'SaveBuildDefaults', 'SessionBar', 'SetSessionOption'],
  Desktop: ['ChooseFolder', 'OpenLink'],
  Editor: ['AttachRole', 'DeriveCompanion', 'DetachRole', 'EditColor', 'EditorState', 'MakePass', 'RedoEdit', 'RemoveCompanion', 'SetLock', 'SetPaletteEntry', 'SetPaletteRamp', 'TryColor', 'UndoEdit'],
  Library: ['ExportTranscript', 'HideSession', 'Models', 'RenameSession', 'SearchStatus', 'Sessions', 'TranscriptPage'],
  Settings: ['DamagedFiles', 'GetSettings', 'SaveSettings'],
  Themes: ['ApplyTargets', 'ApplyTheme', 'CompareThemes', 'ExportFormats', 'ExportTemplate', 'ExportTheme', 'ImportDropped', 'ImportTheme', 'LivePrograms', 'PlanApply', 'Publish', 'PublishMeta', 'SaveVersion', 'SetLive', 'SetPublishMeta', 'TemplateFolders', 'Theme', 'UndoApply', 'UndoableApplies', 'VSCodeTheme', 'Versions'],
  Turns: ['AnswerPermission', 'Cancel', 'NewBuild', 'OpenChat', 'Prewarm', 'Release', 'Send'],
};

export const bindingNames = Object.values(services).flat();

export function installWails(impl: Partial<Record<string, (...args: any[]) => unknown>> = {}): FakeWails {
  const bound: Record<string, Mock> = {};
  for (const name of bindingNames) {
    bound[name] = vi.fn(async (...args: unknown[]) => {
      const f = impl[name];
      if (!f) throw new Error(`unexpected call to ${name}(${JSON.stringify(args)})`);
      return f(...args);
    });
  }
  const listeners = new Map<string, Listener[]>();
  const sent: unknown[][] = [];
  const answers = new Map<string, (...data: unknown[]) => void>();
  const runtime = {
    EventsEmit(name: string, ...data: unknown[]) {
      sent.push([name, ...data]);
      answers.get(name)?.(...data);
    },
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
  w.go = { app: Object.fromEntries(Object.entries(services).map(([s, methods]) => [s, Object.fromEntries(methods.map((m) => [m, bound[m]]))])) };
  w.runtime = runtime;
  return {
    bound,
    listeners,
    sent,
    answer(name, cb) {
      answers.set(name, cb);
    },
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
