// The package's entry point: everything a consumer imports, from the files that define it.
export { buildLaunch, type LaunchBody, type LaunchBuild } from './buildLaunch';
export { buildBuy, buildSell, type TradeBody, type TradeBuild } from './buildTrade';
export { type AskedBuild, assertBuild, type BuildCheck, type CheckBuildContext, checkBuild } from './checkBuild';
export {
  type ClientErrorCode,
  CompanionError,
  type CompanionErrorCode,
  type CompanionErrorFields,
  errorOfAnswer,
  type Retry,
  retryOf,
} from './companionError';
export {
  type Companion,
  type CompanionApi,
  type CompanionOptions,
  createCompanion,
  type FetchLike,
  type SendHelper,
  type SendWith,
} from './createCompanion';
export { createIntent, type Intent, type IntentBody } from './createIntent';
export { dataOrThrow } from './dataOrThrow';
export { RETRY_BY_CODE, retryAfterMs, type ServiceErrorCode } from './errorRetry';
export { EventStreamParser, type ServerSentEvent } from './events/eventStreamParser';
export {
  type BlockEvent,
  type CompanionEvent,
  type EventConnection,
  type EventsOptions,
  type EventType,
  isConfirmed,
  type LaunchEvent,
  type RetractEvent,
  streamEvents,
  type TradeEvent,
} from './events/streamEvents';
export { getIntent } from './getIntent';
export { getQuote, type QuoteQuery, type TradeQuote } from './getQuote';
export { getSettings, type Settings } from './getSettings';
export { getStatus, type Status } from './getStatus';
export { isNonceTrouble, NonceManager, sharedNonces } from './nonceManager';
export { reportSent } from './reportSent';
export { type RateLimitedWait, type RateLimitRetry, retryRateLimited } from './retryRateLimited';
export { sameOriginFetch } from './sameOriginFetch';
export type { components, paths } from './schema';
export {
  type BroadcastBuild,
  type SendableBuild,
  type SendBuildOptions,
  type SentBuild,
  type Step,
  sendBuild,
  type UnsignedTx,
} from './sendBuild';
export { BSC_MIN_PRIORITY_FEE_WEI, type FeeReads, feesOf, recentFeeReads, type SendFees, sendFees } from './sendFees';
export { type WaitOptions, waitForIntent } from './waitForIntent';
