/**
 * The proctoring telemetry types a candidate page reports (docs/design.md §7). Violation
 * types count toward an exam's `maxTabViolations`; recorded types are kept for the
 * invigilator but never counted.
 */
export const VIOLATION_TYPES = ['TAB_SWITCH', 'WINDOW_BLUR', 'FULLSCREEN_EXIT', 'COPY', 'PASTE', 'CONTEXT_MENU'] as const;
export const RECORDED_TYPES = ['NETWORK_OFFLINE', 'NETWORK_ONLINE', 'FULLSCREEN_ENTER'] as const;
export const TELEMETRY_TYPES = [...VIOLATION_TYPES, ...RECORDED_TYPES] as const;
export type TelemetryType = (typeof TELEMETRY_TYPES)[number];
