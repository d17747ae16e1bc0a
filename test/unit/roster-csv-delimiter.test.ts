/**
 * A roster CSV's delimiter is the header's (src/core/formats/roster-io.ts): a subjects
 * column written as "Mathematics; Physics; Chemistry" (the documented separator) must not
 * make the reader split the file at its semicolons, and a semicolon- or tab-separated
 * export from a spreadsheet in another locale still reads.
 */
import { describe, expect, it } from 'vitest';
import { readRosterCsv } from '../../src/core/formats/roster-io.js';

describe('roster CSV delimiter', () => {
  it('reads a comma-separated file whose subjects cells are full of semicolons', () => {
    // as a spreadsheet saves it: empty cells for the arrangements most candidates do not
    // have, and a newline after the last row
    const csv = [
      'Student ID,Name,Phone,Subjects,Extra time %,Extra minutes',
      'U1,Ada Obi,08031234567,Mathematics; Physics; Chemistry,,',
      'U2,Bola Ade,,Mathematics; Biology; Chemistry,25,',
      'U3,Chidi Eze,,Literature; Government; CRS,,15',
      '',
    ].join('\n');
    const r = readRosterCsv(csv);
    expect(r.errors).toEqual([]);
    expect(r.candidates).toEqual([
      { studentId: 'U1', candidateName: 'Ada Obi', phone: '08031234567', subjects: ['Mathematics', 'Physics', 'Chemistry'] },
      { studentId: 'U2', candidateName: 'Bola Ade', subjects: ['Mathematics', 'Biology', 'Chemistry'], extraTimePercent: 25 },
      { studentId: 'U3', candidateName: 'Chidi Eze', subjects: ['Literature', 'Government', 'CRS'], extraTimeMins: 15 },
    ]);
  });

  it('reads semicolon- and tab-separated exports', () => {
    for (const d of [';', '\t']) {
      const r = readRosterCsv(['Student ID', 'Name', 'Phone'].join(d) + '\n' + ['U1', 'Ada Obi', '08031234567'].join(d) + '\n');
      expect(r.errors).toEqual([]);
      expect(r.candidates).toEqual([{ studentId: 'U1', candidateName: 'Ada Obi', phone: '08031234567' }]);
    }
  });
});
