// A small stand-in for the `vscode` module, enough to load the extension in
// plain Node and watch what it registers and shows.  Anything not modelled
// here is a permissive dummy (a class whose instances accept any call).

import Module = require("module");

export interface Recorded {
  commands: Map<string, (...args: unknown[]) => unknown>;
  errors: string[];
  infos: string[];
  config: Record<string, unknown>;
  statusItems: { id?: string; text: string; shown: boolean }[];
  progress: string[];
}

export const recorded: Recorded = {
  commands: new Map(),
  errors: [],
  infos: [],
  config: {},
  statusItems: [],
  progress: [],
};

function dummy(name: string): unknown {
  const target = function () {
    return undefined;
  };
  return new Proxy(target, {
    get(_t, prop) {
      if (prop === "prototype") {
        return {};
      }
      if (prop === Symbol.toPrimitive) {
        return () => name;
      }
      return dummy(`${name}.${String(prop)}`);
    },
    construct() {
      return new Proxy(
        {},
        {
          get: (_o, p) => (p === "then" ? undefined : () => undefined),
        },
      );
    },
    apply() {
      return undefined;
    },
  });
}

const disposable = { dispose() {} };

class EventEmitter<T> {
  private listeners: ((e: T) => void)[] = [];
  event = (l: (e: T) => void) => {
    this.listeners.push(l);
    return disposable;
  };
  fire(e: T) {
    this.listeners.forEach((l) => l(e));
  }
  dispose() {}
}

function configuration(section: string) {
  const prefix = section ? section + "." : "";
  return {
    get<T>(key: string, dflt?: T): T | undefined {
      const v = recorded.config[prefix + key];
      return (v === undefined ? dflt : v) as T;
    },
    has: (key: string) => recorded.config[prefix + key] !== undefined,
    inspect(key: string) {
      const v = recorded.config[prefix + key];
      return { key: prefix + key, globalValue: v };
    },
    update: async (key: string, value: unknown) => {
      recorded.config[prefix + key] = value;
    },
  };
}

const event = () => disposable;

const stub: Record<string, unknown> = {
  EventEmitter,
  Disposable: class {
    static from() {
      return disposable;
    }
    constructor(private fn?: () => void) {}
    dispose() {
      this.fn?.();
    }
  },
  StatusBarAlignment: { Left: 1, Right: 2 },
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
  ViewColumn: { Active: -1, Beside: -2, One: 1 },
  TextEditorRevealType: { Default: 0, InCenter: 1, InCenterIfOutsideViewport: 2, AtTop: 3 },
  Uri: {
    parse: (s: string) => ({ toString: () => s, fsPath: s.replace(/^file:\/\//, "") }),
    file: (p: string) => ({ toString: () => "file://" + p, fsPath: p }),
    joinPath: (u: { fsPath: string }, ...parts: string[]) => ({ fsPath: [u.fsPath, ...parts].join("/") }),
  },
  commands: {
    registerCommand(id: string, fn: (...args: unknown[]) => unknown) {
      recorded.commands.set(id, fn);
      return disposable;
    },
    executeCommand: async () => undefined,
  },
  window: {
    createOutputChannel: () => ({ appendLine() {}, append() {}, show() {}, dispose() {}, clear() {} }),
    createStatusBarItem(id: string) {
      const item = {
        id,
        text: "",
        tooltip: "",
        name: "",
        command: "",
        shown: false,
        show() {
          item.shown = true;
        },
        hide() {
          item.shown = false;
        },
        dispose() {},
      };
      recorded.statusItems.push(item);
      return item;
    },
    showErrorMessage: async (m: string) => {
      recorded.errors.push(m);
      return undefined;
    },
    showWarningMessage: async (m: string) => {
      recorded.errors.push(m);
      return undefined;
    },
    showInformationMessage: async (m: string) => {
      recorded.infos.push(m);
      return undefined;
    },
    setStatusBarMessage: () => disposable,
    // runs the task at once, recording each step it reports
    withProgress: async (options: { title?: string }, task: (p: { report(v: { message?: string }): void }) => unknown) =>
      task({
        report: (v) => {
          recorded.progress.push(`${options.title ?? ""}: ${v.message ?? ""}`);
        },
      }),
    onDidChangeActiveTextEditor: event,
    activeTextEditor: undefined,
  },
  workspace: {
    workspaceFolders: undefined,
    getConfiguration: (section?: string) => configuration(section ?? ""),
    onDidChangeConfiguration: event,
    onDidChangeTextDocument: event,
    onDidSaveTextDocument: event,
    onDidOpenTextDocument: event,
    onDidCloseTextDocument: event,
  },
  languages: { match: () => 0 },
  // as VS Code's: VS Code recognises a cancellation by this name and message
  CancellationError: class CancellationError extends Error {
    constructor() {
      super("Canceled");
      this.name = "Canceled";
    }
  },
};

const fullStub = new Proxy(stub, {
  get(target, prop: string) {
    if (prop in target) {
      return target[prop];
    }
    if (prop === "__esModule") {
      return false;
    }
    return dummy(`vscode.${prop}`);
  },
});

/** Make `require("vscode")` return the stub from now on. */
export function installVscodeStub(): void {
  type Loader = { _load: (request: string, ...rest: unknown[]) => unknown };
  const loader = Module as unknown as Loader;
  const original = loader._load;
  loader._load = function (request: string, ...rest: unknown[]) {
    if (request === "vscode") {
      return fullStub;
    }
    return original.call(this, request, ...rest);
  };
}
