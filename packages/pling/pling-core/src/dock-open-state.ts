// Whether a floating dock is open or folded to its launcher, remembered per page: a person who closed the dock on
// /orders finds it closed there after a reload, and open on a page where they left it open. Kept in localStorage
// when there is one (any failure — private mode, a full quota, no storage at all — only means it is not remembered).

/** The part of the Web Storage API the dock uses. */
export interface DockOpenStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface DockOpenStateOptions {
  /** Open when nothing was remembered. Default true. */
  defaultOpen?: boolean;
  /** Where it is remembered; default `localStorage`; `null` remembers nothing. */
  storage?: DockOpenStorage | null;
  /** The page it is remembered for; default `location.pathname`. */
  page?: string;
  sessionId: string;
}

export const DOCK_OPEN_KEY_PREFIX = 'pling:dock-open:';

function defaultStorage(): DockOpenStorage | null {
  try {
    return (globalThis as { localStorage?: DockOpenStorage }).localStorage ?? null;
  } catch {
    return null; // reading localStorage throws where storage is blocked
  }
}

export class DockOpenState {
  private readonly storage: DockOpenStorage | null;
  private readonly key: string;
  private value: boolean;

  constructor(options: DockOpenStateOptions) {
    this.storage = options.storage === undefined ? defaultStorage() : options.storage;
    const page = options.page ?? (globalThis as { location?: { pathname: string } }).location?.pathname ?? '/';
    this.key = `${DOCK_OPEN_KEY_PREFIX}${options.sessionId}:${page}`;
    this.value = this.read() ?? options.defaultOpen ?? true;
  }

  get open(): boolean {
    return this.value;
  }

  /** Sets and remembers it; whether it changed. */
  set(open: boolean): boolean {
    if (open === this.value) return false;
    this.value = open;
    try {
      this.storage?.setItem(this.key, open ? 'open' : 'closed');
    } catch {
      // Not remembered; the dock still opens and closes.
    }
    return true;
  }

  private read(): boolean | undefined {
    try {
      const stored = this.storage?.getItem(this.key);
      return stored === 'open' ? true : stored === 'closed' ? false : undefined;
    } catch {
      return undefined;
    }
  }
}
