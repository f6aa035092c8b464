// How the build's and the tests' headless Chromium is launched (Debian's chromium driven by
// playwright-core).

// Headless Chromium still preloads the omnibox popup's two WebUI pages for every window it opens:
// about 2 s of CPU a page on a 2-core machine, more than the page itself. Chromium reads one
// --disable-features, so Playwright's own list (playwright-core's chromiumSwitches) is repeated here.
const PLAYWRIGHT_DISABLED = ['AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable', 'LensOverlay', 'MediaRouter', 'PaintHolding', 'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect', 'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch'];
const OMNIBOX = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/**
 * `features`: what Chromium turns off beside the omnibox pages (default: Playwright's own list;
 * a list given replaces it, as a page that needs third-party storage asks).
 */
export function chromiumOptions(features = PLAYWRIGHT_DISABLED) {
  return {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic',
      '--no-first-run', '--disable-component-update', '--disable-sync', `--disable-features=${[...features, ...OMNIBOX].join(',')}`],
  };
}
