import type { paths } from '../api/schema';

type LaunchShape = paths['/build/launch']['post']['requestBody']['content']['application/json']['shape'];

/** One range of a custom shape, as the launch body takes it. */
export type ShapeRange = Extract<LaunchShape, readonly unknown[]>[number];

export type PresetName = 'flat' | 'stepped' | 'steep';

export const PRESET_NAMES: readonly PresetName[] = ['flat', 'stepped', 'steep'];

/**
 * The service's presets (SHAPE_PRESETS in src-main/core/launch/shapes.ts), repeated for drawing only: the renderer
 * imports nothing from main, and a launch with a preset sends just its name, so a drift here could only
 * mislead the picture, never the launch.
 */
export const SHAPE_PRESETS: Record<PresetName, readonly ShapeRange[]> = {
  flat: [{ fromPct: 0, toPct: 100, bps: 10_000 }],
  stepped: [
    { fromPct: 0, toPct: 10, bps: 2_500 },
    { fromPct: 10, toPct: 30, bps: 2_500 },
    { fromPct: 30, toPct: 60, bps: 2_500 },
    { fromPct: 60, toPct: 100, bps: 2_500 },
  ],
  steep: [
    { fromPct: 0, toPct: 20, bps: 1_000 },
    { fromPct: 20, toPct: 50, bps: 2_000 },
    { fromPct: 50, toPct: 80, bps: 3_000 },
    { fromPct: 80, toPct: 100, bps: 4_000 },
  ],
};

/** What each preset does to the price, in a sentence. */
export const PRESET_NOTES: Record<PresetName, string> = {
  flat: 'The whole supply evenly from the opening price to the top.',
  stepped: 'Four equal quarters over widening spans: the price climbs slowly at first and faster as it rises.',
  steep: 'Little supply near the opening price, so early buys move the price a lot.',
};
