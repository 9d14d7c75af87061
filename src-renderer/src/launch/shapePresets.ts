import type { paths } from '../../../clients/ts/src/index';
import type { SHAPE_PRESET_NAMES } from '../../../src-shared/schema/launch';

/** The wizard draws the launch schema's presets, the ones the service lays (test/shapePresets.test.ts holds them equal). */
export { SHAPE_PRESETS } from '../../../src-shared/schema/launch';

type LaunchShape = paths['/build/launch']['post']['requestBody']['content']['application/json']['shape'];

/** One range of a custom shape, as the launch body takes it. */
export type ShapeRange = Extract<LaunchShape, readonly unknown[]>[number];

export type PresetName = (typeof SHAPE_PRESET_NAMES)[number];

/** What each preset does to the price, in a sentence. */
export const PRESET_NOTES: Record<PresetName, string> = {
  flat: 'The whole supply evenly from the opening price to the top.',
  stepped: 'Four equal quarters over widening spans: the price climbs slowly at first and faster as it rises.',
  steep: 'Little supply near the opening price, so early buys move the price a lot.',
};
