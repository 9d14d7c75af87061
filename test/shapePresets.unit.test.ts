import { expect, it } from 'vitest';
import { SHAPE_PRESETS as SERVICE_PRESETS, SHAPE_SPAN_TICKS as SERVICE_SPAN } from '../src-main/core/launch/shapes';
import { SHAPE_PRESETS as WIZARD_PRESETS } from '../src-renderer/src/launch/shapePresets';
import { SHAPE_SPAN_TICKS as WIZARD_SPAN } from '../src-renderer/src/launch/shapeScale';

// The renderer may not import src-main's values: the presets are one list in src-shared that both read, and the span
// is the wizard's own copy. Both must be the service's, or the editor would show a shape other than the one launched.
it("the launch wizard draws exactly the service's preset shapes on the same scale", () => {
  expect(WIZARD_PRESETS).toEqual(SERVICE_PRESETS);
  expect(WIZARD_SPAN).toBe(SERVICE_SPAN);
});
