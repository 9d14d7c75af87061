/**
 * electron-builder's configuration: `npm run dist` packages the desktop app (AppImage and .deb on Linux, a .dmg on
 * macOS, an NSIS installer on Windows, each built on its own platform). It is named `electron-builder.ts`, a name
 * electron-builder finds by itself, so even a bare `npx electron-builder` reads it: run with its defaults, it would
 * rebuild node_modules' better-sqlite3 in place for Electron and break the tests and the headless server. TypeScript
 * rather than YAML or package.json's `build`: the addon's path comes from the function the app loads it with, the
 * shape is type-checked, and test/packaging.unit.test.ts imports it to check its globs against the real files.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Configuration } from 'electron-builder';
import { APP_LINK_SCHEME } from './src-main/core/appPages';
import { electronSqliteAddon } from './src-main/store/sqliteNativeBinding';

const root = import.meta.dirname;
const electronVersion = (
  JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')) as { version: string }
).version;

/** The installers' icon: electron-builder converts a 1024 PNG to .icns (macOS), .ico (Windows) and Linux's sizes. */
export const PACKAGE_ICON = 'resources/icon-1024.png';
/** The window's icon, read at run time from the app's root (src-main/windows/createMainWindow.ts). */
export const WINDOW_ICON = 'resources/icon.png';
/** electron-builder's own macros in paths: the building machine's platform, and the architecture being packaged. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: electron-builder expands these, not JavaScript.
export const MACRO = { platform: '${platform}', arch: '${arch}' } as const;

const config: Configuration = {
  appId: 'com.launchpadcompanion.desktop',
  productName: 'Launchpad Companion',
  // buildResources stays the default `build/` (there is none): set to resources/ it would keep the window's icon out of
  // the app, since electron-builder leaves the build resources folder out of what it packs.
  directories: { output: 'dist' },
  files: [
    'out/main/**',
    'out/preload/**',
    'out/renderer/**',
    // Only this Electron's better-sqlite3, for this platform (native addons are not cross-compiled) and the
    // architecture being packaged.
    electronSqliteAddon(electronVersion, MACRO.platform, MACRO.arch),
    WINDOW_ICON,
    'package.json',
    // Node's build of better-sqlite3 and its sources: Electron never loads them (it is given the addon above).
    '!**/node_modules/better-sqlite3/{binding.gyp,build,deps,src}{,/**/*}',
  ],
  // Native addons cannot be loaded from inside an asar: every .node file (better-sqlite3's Electron build, node-hid's,
  // usb's and keccak's N-API prebuilds, EDR's platform package) stays a real file beside it.
  asarUnpack: ['**/*.node'],
  // The default rebuilds node_modules in place for Electron's ABI, which would break the tests and the headless server
  // on this machine; `npm run native:electron` builds Electron's copy of better-sqlite3 apart, and the other addons
  // are N-API prebuilds that load in Electron as they are.
  npmRebuild: false,
  protocols: [{ name: 'Launchpad Companion link', schemes: [APP_LINK_SCHEME] }],
  linux: {
    target: ['AppImage', 'deb'],
    category: 'Finance',
    icon: PACKAGE_ICON,
  },
  mac: { target: 'dmg', category: 'public.app-category.finance', icon: PACKAGE_ICON },
  win: { target: 'nsis', icon: PACKAGE_ICON },
  nsis: { oneClick: false, allowToChangeInstallationDirectory: true },
};

export default config;
