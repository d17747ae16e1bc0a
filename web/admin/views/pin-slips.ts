/**
 * PIN slips for the roster, laid out for printing (styles.css `.print-slips`: several
 * slips per A4 page, cut lines, no slip split across pages). Each slip carries what a
 * candidate needs at the seat: name, student ID, room code, PIN and the page address.
 */
import { h } from '../dom.js';
import type { Exam, RosterEntry } from '../types.js';

/**
 * One slip per roster entry. `candidateUrl` is the address candidates open (may be empty);
 * `sebQr`, for exams that require Safe Exam Browser, the QR code of the seb:// link
 * (cloned onto each slip).
 */
export function pinSlips(exam: Exam, hallName: string, roster: RosterEntry[], candidateUrl: string, sebQr: SVGSVGElement | null = null): HTMLElement {
  const sebUrl = exam.safeExamBrowser?.required ? exam.safeExamBrowser.sebUrl : null;
  return h('div', { class: 'slips' }, roster.map((r) => h('div', { class: 'slip', 'data-student-id': r.studentId },
    h('div', { class: 'slip-head' }, h('strong', null, hallName), h('span', null, exam.title)),
    h('dl', null,
      h('dt', null, 'Name'), h('dd', { class: 'slip-name' }, r.candidateName),
      h('dt', null, 'Student ID'), h('dd', { class: 'slip-student-id' }, r.studentId),
      h('dt', null, 'Room code'), h('dd', { class: 'slip-room-code' }, exam.accessCode),
      h('dt', null, 'PIN'), h('dd', { class: 'slip-pin' }, r.pin)),
    sebUrl
      ? h('div', { class: 'slip-seb' }, h('p', { class: 'slip-url' }, `This exam opens in Safe Exam Browser: ${sebUrl}`), sebQr ? sebQr.cloneNode(true) as Element as HTMLElement : null)
      : candidateUrl ? h('p', { class: 'slip-url' }, `Open ${candidateUrl} on your seat's computer.`) : null,
    h('p', { class: 'slip-note' }, 'Keep your PIN private. You need it to resume after a power cut.'))));
}

/** Only links our server issues are opened: sms:, WhatsApp's https links. */
export function safeMessagingHref(link: string | null): string | null {
  if (!link) return null;
  return /^(sms:|https:\/\/wa\.me\/|https:\/\/api\.whatsapp\.com\/)/i.test(link) ? link : null;
}
