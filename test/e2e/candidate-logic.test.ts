/**
 * The candidate page's pure rules, run in Node (no browser): the countdown (server
 * sync, monotonic interpolation, warnings at 5 and 1 minute, zero once, pause), the
 * clock format, essay word counts against minWords/maxWords, sign-in validation and
 * the problem-code messages.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Countdown, formatClock } from '../../web/candidate/clock.js';
import { countWords } from '../../web/candidate/dom.js';
import { messageFor } from '../../web/candidate/messages.js';
import { wordCountText } from '../../web/candidate/screens/question.js';
import { validateSignIn } from '../../web/candidate/screens/signin.js';

describe('countdown', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'performance', 'Date'] }));
  afterEach(() => vi.useRealTimers());

  function make() {
    const events: string[] = [];
    let shown: number | null = null;
    const c = new Countdown({
      onTick: (s) => (shown = s),
      onWarning: (m) => events.push(`warn${m}`),
      onZero: () => events.push('zero'),
    });
    return { c, events, shown: () => shown };
  }

  it('interpolates between server syncs, warns at 5 and 1 minute, fires zero once', () => {
    const { c, events, shown } = make();
    c.start();
    expect(shown()).toBeNull(); // nothing from the server yet
    c.sync(302);
    expect(shown()).toBe(302);
    vi.advanceTimersByTime(1500);
    expect(shown()).toBe(301);
    expect(events).toEqual([]);
    vi.advanceTimersByTime(2000);
    expect(events).toEqual(['warn5']);
    c.sync(61); // re-synced by a response
    vi.advanceTimersByTime(1000);
    expect(events).toEqual(['warn5', 'warn1']);
    vi.advanceTimersByTime(70_000);
    expect(shown()).toBe(0);
    expect(events).toEqual(['warn5', 'warn1', 'zero']);
    vi.advanceTimersByTime(5000);
    expect(events.filter((e) => e === 'zero')).toHaveLength(1);
    // extra time granted: zero and the warnings re-arm
    c.sync(400);
    vi.advanceTimersByTime(101_000);
    expect(events.slice(3)).toEqual(['warn5']);
    c.stop();
  });

  it('never moves while paused, and ignores the PC clock', () => {
    const { c, shown } = make();
    c.start();
    c.sync(120, true);
    vi.setSystemTime(Date.now() + 3600_000); // someone changes the PC clock
    vi.advanceTimersByTime(10_000);
    expect(shown()).toBe(120);
    expect(c.isPaused()).toBe(true);
    c.sync(120, false);
    vi.advanceTimersByTime(10_000);
    expect(shown()).toBe(110);
    c.stop();
  });

  it('formats m:ss and h:mm:ss', () => {
    expect(formatClock(null)).toBe('--:--');
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(59)).toBe('0:59');
    expect(formatClock(600)).toBe('10:00');
    expect(formatClock(3725)).toBe('1:02:05');
  });
});

describe('essay word count', () => {
  it('counts words and compares with minWords/maxWords', () => {
    expect(countWords('  An object  stays\nat rest ')).toBe(5);
    expect(countWords('')).toBe(0);
    expect(wordCountText(3, 20, 100)).toEqual({ text: '3 words — write 20–100 words', state: 'under' });
    expect(wordCountText(20, 20, 100).state).toBe('ok');
    expect(wordCountText(101, 20, 100)).toEqual({ text: '101 words — over the limit of 100', state: 'over' });
    expect(wordCountText(1, null, null)).toEqual({ text: '1 word', state: 'ok' });
  });
});

describe('sign-in', () => {
  it('requires every field and a 4–8 digit PIN', () => {
    expect(validateSignIn({ accessCode: '', candidateName: '', studentId: '', candidatePin: '' })).toEqual({
      accessCode: 'Enter the room code.',
      candidateName: 'Enter your full name.',
      studentId: 'Enter your student ID.',
      candidatePin: 'The PIN is 4 to 8 digits.',
    });
    expect(validateSignIn({ accessCode: 'K7P2QX', candidateName: 'Ada', studentId: 'S1', candidatePin: '12345678' })).toEqual({});
    expect(validateSignIn({ accessCode: 'K7P2QX', candidateName: 'Ada', studentId: 'S1', candidatePin: '12a4' }).candidatePin).toBeDefined();
  });

  it('has a distinct, plain message for every candidate problem code', () => {
    const codes = ['ROOM_NOT_FOUND', 'SIGN_IN_FAILED', 'EXAM_NOT_PUBLISHED', 'EXAM_NOT_OPEN', 'EXAM_CLOSED', 'CREDITS_EXHAUSTED', 'DISQUALIFIED', 'ALREADY_SUBMITTED', 'NO_QUESTIONS', 'TIME_OVER', 'EXAM_PAUSED', 'RATE_LIMITED', 'VALIDATION'];
    const titles = codes.map((code) => messageFor({ status: 400, code, detail: 'server detail' }).title);
    expect(new Set(titles).size).toBe(codes.length);
    expect(titles).not.toContain('Something went wrong');
    const open = messageFor({ status: 403, code: 'EXAM_NOT_OPEN', opensAt: '2030-06-01T08:30:00.000Z' });
    expect(open.text).toMatch(/opens at .*2030/);
    expect(messageFor({ status: 429, code: 'RATE_LIMITED', retryAfterSeconds: 600 }).text).toContain('Wait 10 minute(s)');
    // one message for "not on the roster" and "wrong PIN": check both, ask the invigilator
    expect(messageFor({ status: 401, code: 'SIGN_IN_FAILED' }).text).toMatch(/student ID and your PIN.*invigilator/);
    expect(messageFor(null).title).toBe('Cannot reach the exam server');
    expect(messageFor({ status: 418, detail: 'odd' }).text).toBe('odd');
  });
});
