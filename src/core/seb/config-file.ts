/**
 * The Safe Exam Browser configuration HallCBT generates for an exam: the settings (a
 * plist dictionary with this hall's start and quit URLs and hall defaults), and the .seb
 * file that carries them.
 *
 * File format (https://safeexambrowser.org/developer/seb-file-format.html): a .seb file is
 * gzip-compressed; ungzipped it starts with a 4-byte prefix naming its kind. Plain,
 * unencrypted settings are prefixed "plnd", followed by the gzip-compressed UTF-8 XML
 * plist — so gzip("plnd" + gzip(xml)). SEB for Windows' BinaryParser and SEB for macOS
 * read exactly that; no password or certificate is involved ("starting an exam" purpose).
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { build, parse } from 'plist';
import { assertPortable, configKey, type PlistValue } from './config-key.js';

export type SebSettings = { [key: string]: PlistValue };

/** What varies per exam; everything else is a hall default. */
export interface SebExamSettings {
  /** the candidate page for this room, e.g. `http://192.168.1.10:8080/?room=K7QMX4` */
  startUrl: string;
  /** the link shown after submit; SEB quits when it is opened */
  quitUrl: string;
  /** SHA-256 (lower-case hex) of the invigilator's quit password, as SEB stores it */
  quitPasswordHash: string;
}

/** The "plnd" prefix of plain (unencrypted) data, from SEB's file-format page. */
const PLAIN_PREFIX = Buffer.from('plnd', 'utf8');

/**
 * Hall defaults (SEB setting keys as in SEB's configuration-key list): an exam
 * configuration (sebConfigPurpose 0), the Browser & Config Keys sent with requests, the
 * modern WebView with the JavaScript API (browserWindowWebView 3, which SEB's developer
 * page recommends once the exam system reads SafeExamBrowser.security.configKey), no
 * other applications, no URL bar or toolbar, no printing, no spell check, no right-click,
 * reload allowed, full screen, quit by the quit link or the invigilator's password.
 */
export function hallSettings(exam: SebExamSettings): SebSettings {
  const settings: SebSettings = {
    originatorVersion: 'HallCBT_1.2.0',
    sebConfigPurpose: 0,
    startURL: exam.startUrl,
    quitURL: exam.quitUrl,
    quitURLConfirm: false,
    allowQuit: true,
    hashedQuitPassword: exam.quitPasswordHash,
    sendBrowserExamKey: true,
    browserWindowWebView: 3,
    browserViewMode: 1,
    browserWindowShowURL: 0,
    newBrowserWindowShowURL: 0,
    enableBrowserWindowToolbar: false,
    showReloadButton: true,
    browserWindowAllowReload: true,
    newBrowserWindowAllowReload: true,
    showReloadWarning: false,
    allowSwitchToApplications: false,
    allowFlashFullscreen: false,
    permittedProcesses: [],
    allowPrint: false,
    enablePrintScreen: false,
    allowSpellCheck: false,
    allowDictionaryLookup: false,
    enableRightMouse: false,
    allowDownUploads: false,
    allowScreenSharing: false,
    allowVirtualMachine: false,
    allowPreferencesWindow: false,
    enableZoomPage: true,
    enableZoomText: true,
    URLFilterEnable: false,
    examSessionClearSessionCookies: true,
  };
  assertPortable(settings);
  return settings;
}

/** The XML plist of settings (UTF-8 text, as SEB's own .seb files). */
export function settingsXml(settings: SebSettings): string {
  return build(settings);
}

/** The bytes of a .seb file: gzip("plnd" + gzip(XML plist)). */
export function sebFileBytes(settings: SebSettings): Buffer {
  const inner = gzipSync(Buffer.from(settingsXml(settings), 'utf8'));
  return gzipSync(Buffer.concat([PLAIN_PREFIX, inner]));
}

/**
 * Reads a plain .seb file back (tests, and operators checking a file): ungzip, check the
 * "plnd" prefix, ungzip, parse the plist.
 * @throws Error when the file is not a plain SEB configuration
 */
export function readSebFile(bytes: Buffer): SebSettings {
  const outer = gunzipSync(bytes);
  if (!outer.subarray(0, 4).equals(PLAIN_PREFIX)) throw new Error(`not a plain .seb file (prefix "${outer.subarray(0, 4).toString('latin1')}")`);
  const parsed = parse(gunzipSync(outer.subarray(4)).toString('utf8'));
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('the .seb plist is not a dictionary');
  return parsed as SebSettings;
}

/** Settings and Config Key of an exam's configuration, computed together. */
export function examConfiguration(exam: SebExamSettings): { settings: SebSettings; configKey: string } {
  const settings = hallSettings(exam);
  return { settings, configKey: configKey(settings) };
}
