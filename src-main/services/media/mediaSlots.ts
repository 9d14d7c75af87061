import { ApiError } from '../../core/errors';

export const DEFAULT_FETCH_TIMEOUT_MS = 10_000;
/** Uploads and link fetches in progress at once; each may hold up to 5 MB in memory. */
export const DEFAULT_MAX_IN_PROGRESS = 4;
/** Fetches of other people's launch metadata and logos at once: a budget of their own, apart from the user's. */
export const DEFAULT_BACKGROUND_IN_PROGRESS = 2;
/** A stranger's metadata host gets this long, so a tarpit of launches holds a background slot only briefly. */
export const DEFAULT_BACKGROUND_FETCH_TIMEOUT_MS = 4_000;

/** Whose fetch it is: the user's own (upload, launch build), or the service's own look at someone else's launch. */
export interface FetchBudget {
  /** A fetch the service makes by itself: its own small budget and short deadline, and none when switched off. */
  background?: boolean;
}

export interface MediaSlotsOptions {
  /** Uploads and link fetches allowed in progress at once; more answer UPLOADS_BUSY. */
  maxInProgress?: number;
  /** Whole-fetch deadline for a link, redirects and body included. */
  fetchTimeoutMs?: number;
  /** Background fetches (other people's launch metadata and logos) allowed at once; a budget of their own. */
  backgroundMaxInProgress?: number;
  /** Whole-fetch deadline of a background fetch. */
  backgroundFetchTimeoutMs?: number;
}

/**
 * How many uploads and link fetches run at once, in two budgets: the user's (uploads, the links of a launch build)
 * and the background's (other people's launches), each with its own deadline, so background fetches can never fill
 * the user's slots. A full budget answers UPLOADS_BUSY at once: queueing would hold memory unbounded.
 *
 * @example await slots.run({ background: true }, (timeoutMs) => fetchSomething(timeoutMs))
 */
export class MediaSlots {
  private readonly budgets: Record<'user' | 'background', { max: number; timeoutMs: number; inProgress: number }>;

  constructor(options: MediaSlotsOptions = {}) {
    this.budgets = {
      user: {
        max: options.maxInProgress ?? DEFAULT_MAX_IN_PROGRESS,
        timeoutMs: options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS,
        inProgress: 0,
      },
      background: {
        max: options.backgroundMaxInProgress ?? DEFAULT_BACKGROUND_IN_PROGRESS,
        timeoutMs: options.backgroundFetchTimeoutMs ?? DEFAULT_BACKGROUND_FETCH_TIMEOUT_MS,
        inProgress: 0,
      },
    };
  }

  /** Background fetches allowed at once. */
  get backgroundSlots(): number {
    return this.budgets.background.max;
  }

  /** Runs `work` in one of its budget's slots, given the budget's deadline, or answers UPLOADS_BUSY at once. */
  async run<T>(budget: FetchBudget, work: (timeoutMs: number) => Promise<T>): Promise<T> {
    const slots = this.budgets[budget.background ? 'background' : 'user'];
    if (slots.inProgress >= slots.max) {
      throw new ApiError(
        'UPLOADS_BUSY',
        budget.background
          ? `${slots.max} background fetches are already in progress`
          : `${slots.max} image uploads or fetches are already in progress`,
        { retryAfterSeconds: 2 },
      );
    }
    slots.inProgress++;
    try {
      return await work(slots.timeoutMs);
    } finally {
      slots.inProgress--;
    }
  }
}
