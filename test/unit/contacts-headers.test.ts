import { FileFormatError, headerKey, mapHeaders, requirePhoneColumn } from '../../src/contacts/index.js';

describe('mapHeaders', () => {
  it.each([
    'phone',
    'Phone Number',
    'telefono',
    'Teléfono',
    'TELÉFONO:',
    'Tel.',
    'celular',
    'Cel',
    'Móvil',
    'movil',
    'Número',
    'numero',
    'WhatsApp',
    'contact',
    'Contacto',
    'mobile',
    'cell',
    'Número de teléfono',
    ' teléfono_celular ',
  ])('%j is a phone column', (header) => {
    expect(mapHeaders(['Otra', header])).toMatchObject({ ok: true, phone: header });
  });

  it.each([
    ['name', 'name'],
    ['Nombre', 'name'],
    ['Nombre completo', 'name'],
    ['Full Name', 'name'],
    ['CLIENTE', 'name'],
    ['context', 'context'],
    ['Contexto', 'context'],
    ['Notas', 'context'],
    ['notes', 'context'],
    ['Nota', 'context'],
    ['Comentarios', 'context'],
    ['f_id', 'fId'],
    ['ID', 'fId'],
    ['external_id', 'fId'],
    ['External ID', 'fId'],
    ['Folio', 'fId'],
    ['Id externo', 'fId'],
  ])('%j maps to %s', (header, target) => {
    expect(mapHeaders(['Teléfono', header])).toEqual({ ok: true, phone: 'Teléfono', [target]: header, extra: [] });
  });

  it('takes the first matching column for each target; every other column goes to extra, in file order', () => {
    expect(
      mapHeaders(['Folio', 'Nombre', 'Celular', 'Teléfono', 'Notas', 'Nombre (2)', 'Comentarios', 'Ciudad', 'ID']),
    ).toEqual({
      ok: true,
      phone: 'Celular',
      name: 'Nombre',
      context: 'Notas',
      fId: 'Folio',
      extra: ['Teléfono', 'Nombre (2)', 'Comentarios', 'Ciudad', 'ID'],
    });
  });

  it('refuses a header row without a phone column, listing the headers found', () => {
    expect(mapHeaders(['Nombre', 'Correo', 'Column C'])).toEqual({
      ok: false,
      headers: ['Nombre', 'Correo', 'Column C'],
      listed: '"Nombre", "Correo", "Column C"',
      more: 0,
      message:
        'No phone column found. Columns in the file: "Nombre", "Correo", "Column C". Name the column with the phone ' +
        'numbers "Teléfono", "Celular", "WhatsApp" or "Phone" (the first row must be the header row).',
    });
  });

  it('requirePhoneColumn throws a FileFormatError naming the file', () => {
    expect(() => requirePhoneColumn(['Nombre'], 'lista.csv')).toThrow(FileFormatError);
    expect(() => requirePhoneColumn(['Nombre'], 'lista.csv')).toThrow(/^"lista\.csv": No phone column found\./);
    expect(requirePhoneColumn(['Celular'])).toEqual({ ok: true, phone: 'Celular', extra: [] });
  });
});

describe('headerKey', () => {
  it('drops case, accents, punctuation and extra spaces', () => {
    expect(headerKey('  Teléfono  Móvil: ')).toBe('telefono movil');
    expect(headerKey('NÚMERO_DE-TELÉFONO')).toBe('numero de telefono');
    expect(headerKey('Ñandú')).toBe('nandu');
  });
});
