import { readFileSync } from 'node:fs';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { expect, test } from 'vitest';

const root = new URL('../../../', import.meta.url);

// test/http.test.ts holds the snapshot to the live server's document; this holds the client's types (which the
// renderer uses too) to the snapshot, so a change to a route's shape that is not regenerated (`npm run api:types`)
// fails here.
test('schema.d.ts is what openapi-typescript makes of the OpenAPI snapshot', async () => {
  const ast = await openapiTS(new URL('test/__snapshots__/openapi.json', root));
  const committed = readFileSync(new URL('./schema.d.ts', import.meta.url), 'utf8');
  expect(`${COMMENT_HEADER}${astToString(ast)}`).toBe(committed);
});
