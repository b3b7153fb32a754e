/**
 * Spanish messages: neutral Latin American Spanish, "tú" (docs/messages.md, "Spanish style"). Typed as exactly the
 * English catalog's keys: a missing or an extra key is a compile error.
 */
import type { MessageKey } from './en.js';

export const es: Record<MessageKey, string> = {
  'common.cancel': 'Cancelar',

  'format.duration.hms': '{h} h {m} min {s} s',
  'format.duration.ms': '{m} min {s} s',
  'format.duration.s': '{s} s',
  'format.minutes': '{m} min',
  'format.hoursMinutes': '{h} h {m} min',
  'format.hours': '{h} h',
  'format.oneDay': '1 día',

  'status.campaign.pending': '⏳ Pendiente',
  'status.campaign.ready': '🔵 Lista',
  'status.campaign.active': '🟢 Activa',
  'status.campaign.inactive': '⏸ Inactiva',
  'status.campaign.cooldown': '❄️ En reposo',
  'status.campaign.finished': '🏁 Finalizada',
  'status.archived': '🗄 Archivada',
  'status.unknown': '❔ {status}',
  'status.unknownBlank': '❔ Desconocido',

  'channel.phone_call': '📞 Llamada telefónica',
  'channel.whatsapp': '💬 WhatsApp',

  'schedule.day.mon': 'lun',
  'schedule.day.tue': 'mar',
  'schedule.day.wed': 'mié',
  'schedule.day.thu': 'jue',
  'schedule.day.fri': 'vie',
  'schedule.day.sat': 'sáb',
  'schedule.day.sun': 'dom',
  'schedule.none': 'Sin horario: funciona a cualquier hora',

  'cycles.off': 'Desactivados',
  'cycles.on': 'Activados',
  'cycles.rounds': '{max, plural, one {Hasta # ronda} other {Hasta # rondas}}',
  'cycles.onSchedule': '{rounds} en {schedule}',
  'cycles.campaignSchedule': 'el horario de la campaña',
  'cycles.dates':
    '{text}{range, select, both {, del {start} al {end}} start {, desde el {start}} end {, hasta el {end}} other {}}',
  'cycles.apart': '{rounds}, con {cooldown} entre una y otra',
  'cycles.backToBack': '{rounds}, una tras otra',
  'cycles.skips': '{text}; omite los contactos en estado {statuses}',
  'cycles.nowOnRound': '{text}; ahora en la ronda {round}',

  'lifecycle.button.activate': '▶️ Activar',
  'lifecycle.button.pause': '⏸ Pausar',
  'lifecycle.button.resume': '⏯ Reanudar',
  'lifecycle.button.archive': '🗄 Archivar',
  'lifecycle.which.named': '*{name}* (#{id})',
  'lifecycle.which.unnamed': 'La campaña #{id}',
  'lifecycle.confirm.activate.title': '¿Activar la campaña?',
  'lifecycle.confirm.activate.text': '{which} empezará a contactar a sus contactos dentro de su horario.',
  'lifecycle.confirm.activate.confirm': 'Activar',
  'lifecycle.confirm.archive.title': '¿Archivar la campaña?',
  'lifecycle.confirm.archive.text': '{which} dejará de aparecer en las listas. Su estado no cambia.',
  'lifecycle.confirm.archive.confirm': 'Archivar',

  'paging.previous': '◀ Anterior',
  'paging.next': 'Siguiente ▶',

  'usage.title': '*Uso:* `/campaign &lt;comando&gt;`',
  'usage.line': '• `/campaign {syntax}` — {meaning}',
  'usage.problem': '⚠️ {problem}',
  'usage.problemFallback': '⚠️ {problem} Consulta /campaign ayuda.',
  'usage.fallback': 'Cómo usar /campaign',
  'usage.idHint': '`&lt;id&gt;` es el número de una campaña, como lo muestra `/campaign lista`; por ejemplo, `12`.',
  'usage.otherLanguage': 'También valen los nombres en inglés: `list`, `show 12`, `help`…',
  'usage.help.syntax': 'ayuda',
  'usage.help.meaning': 'esta ayuda',
  'usage.list.syntax': 'lista [estado] [teléfono|whatsapp] [archivadas]',
  'usage.list.meaning': 'lista las campañas; el estado es uno de {statuses}',
  'usage.show.syntax': 'ver &lt;id&gt;',
  'usage.show.meaning': 'una campaña completa, con sus botones',
  'usage.activate.syntax': 'activar &lt;id&gt;',
  'usage.activate.meaning': 'inicia una campaña pendiente, lista o en reposo',
  'usage.pause.syntax': 'pausar &lt;id&gt;',
  'usage.pause.meaning': 'pausa una campaña activa o en reposo',
  'usage.resume.syntax': 'reanudar &lt;id&gt;',
  'usage.resume.meaning': 'reanuda una campaña pausada (inactiva)',
  'usage.archive.syntax': 'archivar &lt;id&gt;',
  'usage.archive.meaning': 'oculta una campaña de las listas (su estado no cambia)',
  'usage.contacts.syntax': 'contactos &lt;id&gt; [estado]',
  'usage.contacts.meaning': 'los contactos de la campaña, una página a la vez',
  'usage.calls.syntax': 'llamadas &lt;id&gt; [estado]',
  'usage.calls.meaning': 'las llamadas de la campaña (campañas telefónicas)',
  'usage.create.syntax': 'crear',
  'usage.create.meaning': 'abre el formulario de nueva campaña',
  'usage.edit.syntax': 'editar &lt;id&gt;',
  'usage.edit.meaning': 'cambia el nombre, el horario, los reintentos y más',
  'usage.upload.syntax': 'subir &lt;id&gt;',
  'usage.upload.meaning': 'agrega contactos desde un archivo CSV o XLSX',
  'usage.watch.syntax': 'seguir &lt;id&gt; [#canal]',
  'usage.watch.meaning': 'publica el avance de la campaña en un canal (si no indicas uno, en este)',
  'usage.unwatch.syntax': 'dejar &lt;id&gt; [#canal]',
  'usage.unwatch.meaning': 'deja de publicar el avance en un canal',
  'usage.watching.syntax': 'siguiendo',
  'usage.watching.meaning': 'qué campañas se siguen y en qué canales',
  'usage.try.syntax': 'probar &lt;id_del_agente&gt;',
  'usage.try.meaning': 'habla con un agente en un hilo antes de usarlo en una campaña',
  'usage.lang.syntax': 'idioma [es|en|auto]',
  'usage.lang.meaning':
    'el idioma en que te respondo (`auto`: el de tu Slack); escrito en un canal por alguien que puede cambiar campañas, el idioma del canal',

  'grammar.needsId': '`{sub}` necesita el número de una campaña; por ejemplo, `/campaign {sub} 12`.',
  'grammar.notAnId': '`{raw}` no es el número de una campaña: son números enteros; por ejemplo, `/campaign {sub} 12`.',
  'grammar.badId': '`{raw}` no es el número de una campaña.',
  'grammar.oneId': '`{sub}` lleva un solo número de campaña; por ejemplo, `/campaign {sub} 12`.',
  'grammar.idAndStatus': '`{sub}` lleva el número de una campaña y, si quieres, un estado.',
  'grammar.idAndChannel': '`{sub}` lleva el número de una campaña y, si quieres, un #canal.',
  'grammar.noArguments': '`{sub}` no lleva nada más.',
  'grammar.createNoArguments': '`{sub}` no lleva nada más: abre un formulario.',
  'grammar.notAChannel':
    '`{raw}` no es un canal que pueda leer: escribe `#` y elige el canal de la lista para que Slack lo enlace.',
  'grammar.notAListFilter':
    '`{raw}` no es un filtro de la lista. Usa un estado ({statuses}), un canal ({channels}) o `{archived}`, cada uno una vez como máximo.',
  'grammar.notAContactStatus': '`{raw}` no es un estado de contacto. Usa uno de estos: {contactStatuses}.',
  'grammar.notACallStatus':
    '`{raw}` no es un estado de llamada por el que se pueda filtrar. Usa uno de estos: {callStatuses}.',
  'grammar.tryOneAgent': '`{sub}` lleva un solo id de agente; sin él, muestra los agentes que puedes probar.',
  'grammar.notAnAgentId': '`{raw}` no es un id de agente.',
  'grammar.unknownSubcommand': '`{raw}` no es un comando de /campaign.',
  'grammar.langChoice': '`{raw}` no es una opción de idioma. Usa `es`, `en` o `auto`.',

  'campaignList.header': 'Campañas',
  'campaignList.empty': 'Todavía no hay campañas. Crea una con el botón de abajo o con `/campaign crear`.',
  'campaignList.emptyFiltered':
    'Ninguna campaña coincide con _{filter}_. Muéstralas todas con `/campaign lista` o crea una con el botón de abajo.',
  'campaignList.none': 'No hay campañas.',
  'campaignList.noneMatching': 'Ninguna campaña coincide con _{filter}_.',
  'campaignList.showing':
    '{count, plural, one {Se muestra # campaña} other {Se muestran # campañas}}{filtered, select, yes { que coinciden con _{filter}_} other {}}',
  'campaignList.showingOf':
    '{shown, plural, one {Se muestra #} other {Se muestran #}} de {total, plural, one {# campaña} other {# campañas}}{filtered, select, yes { que coinciden con _{filter}_} other {}}',
  'campaignList.item': '*{name}* · #{id}\n{state} · Agente: {agent}\n🗓 {schedule}',
  'campaignList.scheduleInZone': '{schedule} ({zone})',
  'campaignList.cycles': '🔁 Ciclos: {cycles}',
  'campaignList.filter.phone': 'llamadas telefónicas',
  'campaignList.filter.whatsapp': 'WhatsApp',
  'campaignList.filter.agent': 'agente {agent}',
  'campaignList.filter.archived': 'incluidas las archivadas',
  'campaignList.show': 'Ver',
  'campaignList.showLabel': 'Ver la campaña {id}',
  'campaignList.new': '➕ Nueva campaña',
  'campaignList.next': 'Página siguiente ▶',
  'campaignList.cursorTooLong':
    'Hay más campañas, pero el cursor de página del servicio es demasiado largo para llevarlo en un botón. Acota la lista con un filtro; por ejemplo, `/campaign lista activa`.',
  'campaignList.more':
    '…y {count, plural, one {# campaña más de esta página que no se muestra} other {# campañas más de esta página que no se muestran}} (Slack muestra {max} bloques como máximo): {ids}. Abre una con `/campaign ver &lt;id&gt;`{hasNext, select, yes {; el botón Página siguiente continúa después de ellas} other {}}.',

  'lang.name.en': 'inglés',
  'lang.name.es': 'español',
  'lang.personSet': '✅ Desde ahora te respondo en {language}. `/campaign idioma auto` vuelve al idioma de tu Slack.',
  'lang.personAuto': '✅ Desde ahora te respondo en el idioma de tu Slack ({language}).',
  'lang.channelSet': '{who} cambió el idioma de este canal a {language}: lo que publique aquí será en {language}.',
  'lang.channelAuto': '{who} devolvió el idioma de este canal al predeterminado de la app, {language}.',
  'lang.channelOwnUnchanged':
    'Eso cambió el idioma del canal. El tuyo sigue en {language}: cámbialo con `/campaign idioma es|en|auto` en un mensaje directo conmigo.',
  'lang.channelNotPermitted':
    'Solo quienes pueden cambiar campañas pueden elegir el idioma de un canal, así que cambié solo el tuyo.',
  'lang.statusPerson':
    'Te respondo en {language} ({source, select, override {lo elegiste con `/campaign idioma`} other {el idioma de tu Slack}}).',
  'lang.statusChannel':
    'Lo que publico en este canal está en {language} ({source, select, channel {elegido para este canal} other {el predeterminado de la app}}).',
  'lang.statusHow':
    'Cambia el tuyo con `/campaign idioma es`, `/campaign idioma en` o `/campaign idioma auto` (el idioma de tu Slack).',
};
