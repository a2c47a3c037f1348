// Data shapes of the resources the show tool draws, and what views get from the shell.

export type Component = "context" | "files" | "folder" | "flows" | "flow";

/** structuredContent of the show tool: the resource's own JSON and how to draw it. */
export interface ShowResult {
  component: string;
  uri: string;
  data: unknown;
}

export interface SessionContext {
  principal?: string;
  session?: string;
  state?: "live" | "idle" | "closed" | string;
  browser?: string;
  url?: string;
  title?: string;
  window?: { width?: number; height?: number };
  openedAt?: string;
  lastUsedAt?: string;
  idleTimeout?: string;
}

export interface FolderRef {
  name: string;
  uri: string;
  count?: number;
}

export interface FileItem {
  name: string;
  folder?: string;
  size?: number;
  mimeType?: string;
  uri: string;
  link?: string;
  modified?: string;
}

export interface FilesData {
  folders?: FolderRef[];
  files?: FileItem[];
}

export interface FolderData {
  folder?: string;
  uri?: string;
  files?: FileItem[];
}

export interface FlowParameter {
  name: string;
  type?: string;
  default?: unknown;
  required?: boolean;
  description?: string;
}

export interface FlowSummary {
  name: string;
  uri: string;
  description?: string;
  parameters?: FlowParameter[];
  steps?: number;
  shared?: boolean;
  /** A flow of the read-only library an operator publishes. */
  library?: boolean;
  owner?: string;
}

export interface FlowsData {
  flows?: FlowSummary[];
}

export interface FlowStep {
  tool: string;
  args?: Record<string, unknown>;
  id?: string;
  note?: string;
  onError?: string;
}

export interface FlowDoc {
  name?: string;
  description?: string;
  shared?: boolean;
  owner?: string;
  parameters?: FlowParameter[];
  steps?: FlowStep[];
}

/** What a view may do: every callback is absent when the host cannot do it. */
export interface ViewEnv {
  /** Drill into a resource through the server's show tool (needs serverTools). */
  show?: (uri: string) => void;
  /** Reads an image resource through the host as a data: URL (needs serverResources). */
  image?: (uri: string) => Promise<string | undefined>;
  /** Opens a file in the lightbox. */
  openFile?: (file: FileItem, list: FileItem[]) => void;
  /** Asks the host to save a file (needs downloadFile). */
  save?: (file: FileItem) => void;
  /** Asks the host to open a web page (needs openLinks). */
  openLink?: (url: string) => void;
  /** Current display mode; inline views are compact. */
  displayMode: "inline" | "fullscreen" | "pip";
  locale?: string;
  now: () => Date;
}

/** The sentence shown where drilling in needs a server call the host can't make. */
export function noServerTools(what: string): string {
  return `Open ${what} from the chat: this host can't call the server from the app.`;
}
