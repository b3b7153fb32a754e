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

  'status.contact.queue': '🕒 En cola',
  'status.contact.sending': '📤 Enviando',
  'status.contact.sent': '📨 Enviado',
  'status.contact.delivered': '📬 Entregado',
  'status.contact.read': '👀 Leído',
  'status.contact.accepted': '👍 Aceptado',
  'status.contact.rejected': '👎 Rechazado',
  'status.contact.failed': '❌ Fallido',
  'status.contact.retrying': '🔁 Reintentando',
  'status.contact.converted': '🎯 Convertido',
  'status.contact.voicemail': '📼 Buzón de voz',
  'status.contact.answered': '📞 Contestado',

  'status.call.created': '🆕 Creada',
  'status.call.queued': '🕒 En cola',
  'status.call.ringing': '🔔 Sonando',
  'status.call.inProgress': '🎙 En curso',
  'status.call.forwarding': '↪️ Transfiriendo',
  'status.call.ended': '☑️ Terminada',
  'status.call.busy': '🚫 Ocupada',
  'status.call.noAnswer': '📵 Sin respuesta',
  'status.call.failed': '❌ Fallida',

  'answeredBy.human': '🙋 Persona',
  'answeredBy.machine': '🤖 Máquina',
  'answeredBy.unknown': '❔ Desconocido',
  'endedBy.agent': 'el agente',
  'endedBy.user': 'el contacto',
  'endedBy.system': 'el sistema',
  'endedBy.withReason': '{who} ({why})',
  'common.yes': 'Sí',
  'common.no': 'No',

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
  'lifecycle.confirm.pause.title': '¿Pausar la campaña?',
  'lifecycle.confirm.pause.text':
    '{which} dejará de llamar y de enviar mensajes hasta que alguien la reanude. Las llamadas en curso terminan.',
  'lifecycle.confirm.pause.confirm': 'Pausar',
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
  'usage.watch.syntax': 'seguir &lt;id&gt; [#canal] [compacto|detallado] [solo:&lt;resultado&gt;,…] [humano] [ajustes]',
  'usage.watch.meaning':
    'publica el avance de la campaña en un canal (si no indicas uno, en este); `compacto`: una línea por llamada; `solo:` resultados ({outcomes}); `humano`: contestadas por una persona; `ajustes`: todas las opciones en un formulario',
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

  // Contacts and calls pages (/campaign contacts|calls), a contact in full
  'contactsPage.header': 'Contactos · campaña #{id}',
  'contactsPage.empty':
    'No hay contactos en {named, select, yes {*{name}* (#{id})} other {la campaña #{id}}}{filtered, select, yes { con estado {status}} other {}}.',
  'contactsPage.emptyPage': 'No hay contactos en esta página.',
  'contactsPage.addSome': 'Agrega algunos con `/campaign subir {id}`.',
  'contactsPage.summary':
    '{named, select, yes {*{name}* (#{id})} other {campaña #{id}}}{filtered, select, yes { con estado {status}} other {}} · página {page, number} · {counted, select, yes {{shown, number} de {total, plural, one {# contacto} other {# contactos}}} other {{shown, plural, one {# contacto} other {# contactos}}}}',
  'contactsPage.fallback': 'Contactos de {summary}',
  'contactsPage.item':
    '*{name}* · {phone}\n{status} · {calls, plural, one {# llamada} other {# llamadas}}{hasLast, select, yes { · última: {last}} other {}}',
  'contactsPage.unnamed': 'Contacto #{id}',
  'contactsPage.details': 'Detalles',
  'contactsPage.remove': 'Quitar',
  'contactsPage.removeTitle': '¿Quitar el contacto?',
  'contactsPage.removeText': '¿Quitar a {name}? {phone} saldrá de la campaña #{id}. Esto no se puede deshacer.',
  'contactsPage.removed': 'Se quitó el contacto {contactId} de la campaña #{id}.',
  'contactsPage.more':
    '{count, plural, one {…y # contacto más en esta página que no se muestra} other {…y # contactos más en esta página que no se muestran}} (Slack muestra como máximo {max} bloques).',
  'contactDetail.header': 'Contacto #{contactId} · campaña #{id}',
  'contactDetail.status': '*Estado*\n{value}',
  'contactDetail.retries': '*Reintentos*\n{value, number}',
  'contactDetail.calls': '*Llamadas*\n{value, number}',
  'contactDetail.billedDuration': '*Duración facturada*\n{value}',
  'contactDetail.lastCall': '*Última llamada*\n{value}',
  'contactDetail.followUp': '*Seguimiento*\n{value}',
  'contactDetail.externalId': '*Id externo*\n{value}',
  'contactDetail.context': '*Contexto*\n{value}',
  'contactDetail.extractedData': '*Datos extraídos*',
  'contactDetail.moreFields':
    '{count, plural, one {…y # campo más que no se muestra.} other {…y # campos más que no se muestran.}}',
  'contactDetail.allContacts': '👥 Todos los contactos',
  'contactDetail.fallback': '{name} (contacto #{contactId} de la campaña #{id}): {status}',
  'callsPage.header': 'Llamadas · campaña #{id}',
  'callsPage.empty':
    'Todavía no hay llamadas en la campaña #{id}{filtered, select, yes { con estado {status}} other {}}.',
  'callsPage.emptyPage': 'No hay llamadas en esta página.',
  'callsPage.summary':
    'campaña #{id}{filtered, select, yes { con estado {status}} other {}} · página {page, number} · {counted, select, yes {{shown, number} de {total, plural, one {# llamada} other {# llamadas}}} other {{shown, plural, one {# llamada} other {# llamadas}}}}',
  'callsPage.fallback': 'Llamadas de {summary}',
  'callsPage.item':
    '*{who}*{hasPhone, select, yes { · {phone}} other {}}\n{status}{answered, select, yes { · contestada por {answeredBy}} other {}} · {duration}{ended, select, yes { · terminada por {endedBy}} other {}}\nInició {started} · llamada `{callId}`',
  'callsPage.contact': 'Contacto #{id}',
  'callsPage.unknownContact': 'Contacto desconocido',
  'callsPage.more':
    '{count, plural, one {…y # llamada más en esta página que no se muestra} other {…y # llamadas más en esta página que no se muestran}} (Slack muestra como máximo {max} bloques).',

  'serviceError.cancelled': 'La solicitud se canceló antes de que el servicio de campañas respondiera.',
  'serviceError.unexpected': 'Algo salió mal de forma inesperada; los detalles están en los registros de la app.',
  'serviceError.network.maybeApplied':
    'La conexión con el servicio de campañas se cortó mientras atendía la solicitud, así que puede que se haya aplicado o no; revísalo antes de intentarlo de nuevo.',
  'serviceError.network.unreachable':
    'No se puede contactar al servicio de campañas en este momento; no se cambió nada.',
  'serviceError.timeout.maybeApplied':
    'El servicio de campañas tardó demasiado en responder, así que puede que el cambio se haya aplicado o no; revísalo antes de intentarlo de nuevo.',
  'serviceError.timeout.unreachable':
    'No se puede contactar al servicio de campañas en este momento (no respondió a tiempo); no se cambió nada.',
  'serviceError.protocol':
    'El servicio de campañas envió una respuesta que esta app no entiende; los detalles están en los registros de la app.',
  'serviceError.forbidden':
    'El servicio de campañas rechazó esta acción para la clave de API de la app (prohibido); pide a un administrador que revise los permisos de la clave.',
  'serviceError.notFound':
    'El servicio de campañas no encontró lo que pediste; puede que se haya eliminado o que el número sea incorrecto.',
  'serviceError.notFound.named': 'No se encontró {name}; puede que se haya eliminado o que el número sea incorrecto.',
  'serviceError.rateLimited':
    'El servicio de campañas está recibiendo demasiadas solicitudes en este momento; inténtalo de nuevo en unos segundos.',
  'serviceError.rateLimited.wait':
    'El servicio de campañas está recibiendo demasiadas solicitudes en este momento; inténtalo de nuevo en {seconds, plural, one {# segundo} other {# segundos}}.',
  'serviceError.serverError': 'El servicio de campañas tuvo un error interno; inténtalo de nuevo en un momento.',
  'serviceError.unavailable':
    'El servicio de campañas no está disponible por ahora; inténtalo de nuevo en unos minutos.',
  'serviceError.invalidRequest':
    'El servicio de campañas rechazó la solicitud por no ser válida; revisa los valores e inténtalo de nuevo.',
  'serviceError.refused.details': 'El servicio de campañas rechazó la solicitud: {details}.',
  'serviceError.refusedInput': 'El servicio de campañas rechazó los datos: {details}.',
  'serviceError.details.invalidValue': 'el valor de {field} no es válido',
  'serviceError.badApiKey':
    'El servicio de campañas rechazó la clave de API; pide a un administrador que revise OUTREACH_API_KEY.',
  'serviceError.conflict':
    'El servicio de campañas rechazó el cambio por el estado actual del elemento; actualiza e inténtalo de nuevo.',
  'serviceError.conflict.details': 'El servicio de campañas rechazó el cambio por el estado actual: {details}.',
  'serviceError.unexpectedAnswer':
    'El servicio de campañas respondió de forma inesperada; los detalles están en los registros de la app.',
  'serviceError.invalidStatus': 'Ese estado no es válido aquí; elige uno de los estados que se ofrecen.',
  'serviceError.immutableField':
    'Esa configuración no se puede cambiar una vez creada la campaña (el agente, la integración, el canal y si hay ciclos y su modo se fijan al crearla).',
  'serviceError.immutableField.named':
    'La configuración "{field}" no se puede cambiar una vez creada la campaña; crea una campaña nueva para cambiarla.',
  'serviceError.unknownAction':
    'El servicio de campañas no conoce esa acción; usa activar, pausar, reanudar o archivar.',
  'serviceError.agentNotFound':
    'No se encontró el agente; revisa que sea el id público del agente y que pertenezca a esta organización.',
  'serviceError.agentNotFound.named':
    'No se encontró el agente {agent}; revisa que sea el id público del agente y que pertenezca a esta organización.',
  'serviceError.integrationNotFound':
    'No se encontró la integración para ese agente; elige una integración que pertenezca al agente elegido.',
  'serviceError.integrationNotFound.named':
    'No se encontró la integración {integration} para ese agente; elige una integración que pertenezca al agente elegido.',
  'serviceError.invalidIntegrationType':
    'Ese canal no es compatible con esta integración; elige phone_call o whatsapp según la integración.',
  'serviceError.invalidFilterTag':
    'Una de las etiquetas de filtro de los ciclos no es una etiqueta de hilo conocida; quítala o elige una que exista.',
  'serviceError.invalidPhoneNumber':
    'El número de teléfono no es válido; escríbelo con su código de país, por ejemplo +52 55 1234 5678.',
  'serviceError.missingContact': 'Falta el número de teléfono; cada contacto necesita uno.',
  'serviceError.contactNotFound': 'No se encontró ese contacto en la campaña; puede que se haya eliminado.',
  'serviceError.contactNotDeletable':
    'El contacto no se puede eliminar porque ya se trabajó; solo se pueden eliminar contactos en cola o fallidos.',
  'serviceError.contactNotDeletable.named':
    'El contacto {contact} no se puede eliminar porque ya se trabajó; solo se pueden eliminar contactos en cola o fallidos.',
  'serviceError.campaignFinished': 'La campaña ya finalizó, así que no se puede cambiar.',
  'serviceError.cyclesNotEnabled': 'Esta campaña no tiene ciclos, y solo se pueden activar al crear una campaña.',
  'serviceError.scheduledModeOnly':
    'El horario de los ciclos y sus fechas de inicio y fin solo se usan cuando el modo de ciclos es programado; quítalos o cambia el modo al crear la campaña.',
  'serviceError.invalidStatusTransition': 'El estado actual de la campaña no permite esa acción.',
  'serviceError.billingLimitReached':
    'Se alcanzó el límite del plan de la organización, así que no pueden correr más campañas; pide a un administrador que amplíe el plan o pausa otra campaña.',
  'serviceError.billingLimitReached.action':
    'Se alcanzó el límite del plan de la organización, así que la campaña no se puede {action, select, activate {activar} pause {pausar} resume {reanudar} archive {archivar} other {cambiar}}; pide a un administrador que amplíe el plan o pausa otra campaña.',
  'serviceError.transition.now':
    'La campaña está {status, select, pending {pendiente} ready {lista} active {activa} inactive {inactiva (pausada)} cooldown {en reposo} finished {finalizada} other {en estado «{status}»}}{action, select, activate {, así que no se puede activar} pause {, así que no se puede pausar} resume {, así que no se puede reanudar} archive {, así que no se puede archivar} other {, así que no permite eso}}.',
  'serviceError.transition.resumeHint': 'Para reiniciar una campaña pausada, reanúdala.',
  'serviceError.transition.canBe': 'Puedes {actions}.',
  'serviceError.transition.canGoTo': 'Puede pasar a: {targets}.',
  'serviceError.transition.activated': 'activarla',
  'serviceError.transition.paused': 'pausarla',
  'serviceError.transition.resumed': 'reanudarla',
  'serviceError.transition.archived': 'archivarla',
  'serviceError.subject.campaign': 'la campaña {id}',
  'serviceError.subject.contact':
    'el contacto{id, select, none {} other { {id}}}{campaign, select, none {} other { de la campaña {campaign}}}',
  'serviceError.subject.call': 'la llamada{id, select, none {} other { {id}}}',
  'serviceError.subject.thread': 'el hilo{id, select, none {} other { {id}}}',
  'serviceError.subject.endUser': 'el usuario final{id, select, none {} other { {id}}}',

  'feedback.error': '⚠️ {sentence}',
  'feedback.success': '✅ {sentence}',
  'feedback.currentStatus': 'La campaña #{id} está {status}.',
  'feedback.instead': 'Lo que puedes hacer en su lugar:',
  'feedback.staleButton': 'Ese botón ya no funciona. Vuelve a ejecutar el comando para obtener uno nuevo.',
  'submission.crashed':
    'Algo salió mal de forma inesperada; los detalles están en los registros de la app. No se perdió nada: cierra esto para volver al formulario.',
  'lifecycleResult.done':
    '{who} {action, select, activate {activó} pause {pausó} resume {reanudó} other {archivó}} *{name}* (#{id}). {action, select, archive {Su estado sigue siendo {status}.} other {Ahora está {state}.}}',

  'readOnly.refused':
    'No puedes {what, select, activate {activar campañas} pause {pausar campañas} resume {reanudar campañas} archive {archivar campañas} create {crear campañas} edit {editar campañas} uploadTo {subir contactos a campañas} upload {subir contactos} watch {seguir campañas} unwatch {dejar de seguir campañas} removeContacts {quitar contactos de campañas} editEndUsers {editar usuarios finales de campañas} scheduleReports {programar reportes de campañas} postReports {publicar reportes de campañas en canales} other {cambiar campañas}}. {whoCan}',
  'readOnly.whoCan':
    'Cambiar campañas es solo para {who}. Pídeselo a alguien de ahí, o pide a un administrador que te agregue a ADMIN_USER_IDS.',
  'readOnly.fullMembersOnly':
    'Cambiar campañas es solo para los miembros plenos de este espacio de trabajo: los invitados y las personas de otras organizaciones pueden leer, no cambiar.',
  'readOnly.groupMembers': 'los miembros de {group}',
  'readOnly.whoCanReply':
    'Responder a clientes es solo para {who}. Pídeselo a alguien de ahí, o pide a un administrador que te agregue a RESPONDER_USER_IDS.',
  'readOnly.anyMemberCanReply':
    'Los miembros de este espacio de trabajo pueden responder a clientes; los invitados y las personas de otras organizaciones, no.',

  'fairUse.wait':
    '⏳ Enviaste más de {burst} comandos o clics en poco tiempo. El servicio de campañas es compartido por todos aquí, así que marco un ritmo para cada persona: espera {wait, select, minutes {{minutes, plural, one {# minuto} other {# minutos}}} other {{seconds, plural, one {# segundo} other {# segundos}}}} e inténtalo de nuevo. No se hizo nada con ese último.',

  'audit.line':
    '{icon} {who} {action}{campaign, select, none {} other { campaña #{campaign}}} — {result, select, ok {correcto} refused {rechazado} other {falló}}{detail, select, none {} other {: {detail}}}',
  'audit.action.activate': 'activar',
  'audit.action.pause': 'pausar',
  'audit.action.resume': 'reanudar',
  'audit.action.archive': 'archivar',
  'audit.action.create': 'crear',
  'audit.action.edit': 'editar',
  'audit.action.upload': 'subir',
  'audit.action.uploadFinished': 'subida terminada',

  'callMessage.contactNumbered': 'Contacto #{id}',
  'callMessage.unknownContact': 'Contacto desconocido',
  'callMessage.recording': '▶️ Grabación',
  'callMessage.policyScore':
    '{score}{counted, select, yes { ({met}/{evaluated} cumplidas)} other {}}{evaluating, select, yes { · en evaluación} other {}}',
  'callMessage.field.answeredBy': '*Contestó*\n{value}',
  'callMessage.field.duration': '*Duración*\n{value}',
  'callMessage.field.endedBy': '*Terminada por*\n{value}',
  'callMessage.field.started': '*Inicio*\n{value}',
  'callMessage.field.policyScore': '*Puntaje de políticas*\n{value}',
  'callMessage.field.recording': '*Grabación*\n{value}',
  'callMessage.extractedData': '*Datos extraídos*\n{data}',
  'callMessage.context': 'Campaña {campaign} · llamada `{callId}`',
  'callMessage.details': 'Detalles',
  'callMessage.contact': 'Contacto',

  'callDetails.header': 'Detalles de la llamada',
  'callDetails.untitled': 'Llamada',
  'callDetails.summary': '*{who}* · {status}\nllamada `{callId}`',
  'callDetails.field.type': '*Tipo*\n{value}',
  'callDetails.field.created': '*Creada*\n{value}',
  'callDetails.field.ended': '*Fin*\n{value}',
  'callDetails.field.billed': '*Facturado*\n{value}',
  'callDetails.field.agent': '*Agente*\n{value}',
  'callDetails.policies':
    '*Políticas* · {met, number} cumplidas de {evaluated, number} evaluadas{notApplicable, plural, =0 {} one {, # no aplica} other {, # no aplican}}',
  'callDetails.morePolicies':
    '{count, plural, one {…y # política más que no se muestra.} other {…y # políticas más que no se muestran.}}',
  'callDetails.noResults': 'Todavía no hay resultados de políticas.',
  'callDetails.noEvaluation': 'Esta llamada no tiene evaluación de políticas.',
  'callDetails.fallback': 'Llamada {callId}: {status}',

  'endUser.title': 'Usuario final',
  'endUser.untitled': 'Usuario final',
  'endUser.summary': '*👤 {name}*\n{info}',
  'endUser.idLine': 'Usuario final `{id}`{type, select, none {} other { · {type}}}',
  'endUser.fallback': 'Usuario final {name}',
  'endUser.save': 'Guardar',
  'endUser.nameLabel': 'Nombre visible',
  'endUser.infoLabel': 'Información',
  'endUser.infoHint': 'Lo que el agente sabe de esta persona.',
  'endUser.loading': 'Cargando el usuario final…',
  'endUser.saved': '✅ Lo guardaste. Ahora se llama *{name}*.',
  'endUser.stale': 'Este formulario está desactualizado: ciérralo y vuelve a hacer clic en Contacto.',
  'endUser.nameBlank': 'Escribe un nombre visible (no puede quedar vacío).',
  'endUser.tooLong': 'Demasiado largo: acórtalo.',

  'conversation.sender.agent': '🤖 Agente',
  'conversation.sender.endUser': '👤 Usuario final',
  'conversation.sender.system': '⚙️ Sistema',
  'conversation.sender.you': '👤 Tú',
  'conversation.sender.slack': '💬 Respuesta enviada desde Slack',
  'conversation.media':
    '📎 {type, select, image {imagen} audio {audio} video {video} button {botón} template {plantilla} document {documento} other {adjunto}}',
  'conversation.empty':
    '_(mensaje {type, select, text {de texto} image {de imagen} audio {de audio} video {de video} button {de botón} template {de plantilla} document {de documento} other {{type}}} vacío)_',
  'conversation.shortened': '… _(recortado para que quepa en Slack)_',
  'conversation.intro':
    '💬 La conversación sigue en este hilo. Lo que respondas aquí se envía al agente en nombre del contacto y la respuesta del agente se publica aquí; empieza con `note:` o `//` para que quede como nota interna (no se envía).',

  'digest.title':
    '*📦 Llegan llamadas más rápido de lo que Slack permite publicar una por mensaje{part, select, none {} other { (resumen {part})}}*',
  'digest.summary':
    '{count, plural, one {# llamada} other {# llamadas}} de la campaña {campaigns}, actualizadas aquí mismo. Para ver los *Detalles*, usa `/campaign llamadas &lt;id&gt;`.',
  'digest.fallback': '{count, plural, one {# llamada} other {# llamadas}} de la campaña {campaigns}',

  'whatsapp.digestTitle':
    '*💬 Campaña de WhatsApp {name}*\n{count, plural, one {# contacto} other {# contactos}} por estado',
  'whatsapp.noContacts': '*Contactos*\n—',
  'whatsapp.updated': 'Actualizado: {at}',
  'whatsapp.fallback': 'Campaña de WhatsApp {name}: {count, plural, one {# contacto} other {# contactos}}',
  'whatsapp.contactContext': 'Campaña #{campaignId} · contacto {contactId}',

  'watch.invite':
    'No puedo publicar en {channel}: es privado (o no lo veo). Invítame con `/invite @Outreach` en ese canal y vuelve a ejecutar el comando.',
  'watch.archived': '{channel} está archivado. Desarchívalo o elige otro canal.',
  'watch.notInChannel':
    'No estoy en {channel}. Invítame con `/invite @Outreach` en ese canal y vuelve a ejecutar el comando.',
  'watch.joinFailed':
    'No pude unirme a {channel} ({code}). Invítame con `/invite @Outreach` en ese canal y vuelve a intentarlo.',
  'watch.confirm.text':
    '🔐 {sharing, select, unknown {No sé si {channel} está compartido con personas de otra organización (Slack no lo dice).} other {{channel} es un canal de Slack Connect: tiene miembros de otra organización.}} Si sigue {campaign}, leerán los detalles de sus llamadas, los números de teléfono y las transcripciones de las conversaciones. Todavía no empezó nada.',
  'watch.confirm.button': 'Seguirla ahí de todos modos',
  'watch.confirm.alternative': 'O síguela en un canal solo de tu organización: `/campaign seguir {id} #canal`.',
  'watch.publicChannel':
    '⚠️ {channel} es un canal público: los detalles de las llamadas, los números de teléfono y las transcripciones que publique ahí los puede leer cualquiera en el espacio de trabajo, no solo sus miembros.',
  'watch.externalChannel':
    '⚠️ {channel} está compartido con otra organización: sus personas pueden leer lo que publique ahí.',
  'watch.already': '👀 {channel} ya sigue {campaign}.',
  'watch.intro':
    '👀 {who} configuró este canal para seguir {campaign} · {channel}.\nPublicaré {kind, select, whatsapp {los conteos de contactos por estado (un mensaje, actualizado aquí mismo) y cada contacto que convierte, rechaza o falla} other {cada llamada (un mensaje, actualizado a medida que avanza) con su conversación en el hilo del mensaje}}. Lo que un respondedor escribe en el hilo de una llamada va al agente en nombre del contacto; empieza con `note:` o `//` para dejarlo como nota interna (las respuestas de otras personas también quedan internas).',
  'watch.started':
    '✅ {channel} ahora sigue {campaign}{resumed, select, yes { otra vez (estaba suspendida)} other {}}. Las llamadas de ahora en adelante aparecen ahí.',
  'watch.notWatching': '{channel} no sigue la campaña #{id}. Consulta `/campaign siguiendo`.',
  'watch.unwatched':
    '✅ {channel} ya no sigue la campaña #{id}{named, select, yes { ({name})} other {}}. Los mensajes ya publicados se quedan.',
  'watch.reason.archived': 'el canal se archivó',
  'watch.reason.removed': 'me sacaron del canal',
  'watch.reason.noPermission': 'Slack ya no me deja publicar ahí (probablemente ya no estoy en el canal)',
  'watch.reason.notFound': 'el canal ya no existe o ya no lo veo (un canal privado del que me sacaron)',
  'watch.reason.restricted': 'los permisos de publicación del canal no me dejan publicar',
  'watch.reason.other': 'Slack respondió `{code}`',
  'watch.fix.unarchive':
    'Desarchívalo (e invítame de nuevo con `/invite @Outreach` si ya no estoy en él): las publicaciones se reanudan solas.',
  'watch.fix.invite': 'Invítame de nuevo con `/invite @Outreach` en ese canal: las publicaciones se reanudan solas.',
  'watch.fix.postingPermissions':
    'Permite que las apps publiquen ahí (configuración del canal › Permisos de publicación) y vuelve a ejecutar `/campaign seguir` para ese canal.',
  'watch.fix.other': 'Cuando eso se resuelva en Slack, vuelve a ejecutar `/campaign seguir` para ese canal.',
  'watch.notice.suspended':
    '⛔ Dejé de publicar el avance de {count, plural, one {la campaña} other {las campañas}} {campaigns} en {channel}: {why}. {fix} O síguela en otro canal: `/campaign seguir {id} #otro-canal`.',
  'watch.notice.gone':
    '⛔ La campaña {campaign} ya no existe en el servicio de Outreach (se eliminó ahí), así que dejé de seguirla en {channels}. Los mensajes ya publicados se quedan. `/campaign dejar {id} #canal` la quita de `/campaign siguiendo`.',
  'watch.notice.resumed':
    '▶️ {channel} sigue otra vez {count, plural, one {la campaña} other {las campañas}} {campaigns} ({why, select, invited {me invitaron de nuevo} unarchived {el canal se desarchivó} other {el canal está disponible otra vez}}); las publicaciones siguieron donde se habían detenido.',

  'watching.none': 'Ningún canal sigue una campaña. Empieza con `/campaign seguir &lt;id&gt; [#canal]`.',
  'watching.header':
    '*👀 Siguiendo* · {subs, plural, one {# suscripción} other {# suscripciones}} en {channels, plural, one {# canal} other {# canales}}',
  'watching.line':
    '• #{id}{named, select, yes { {name}} other {}} · {kind} · desde el {since}, por {who}{state, select, gone { · ⛔ eliminada en el servicio — `/campaign dejar {id} {channel}` la quita} suspended { · ⛔ suspendida ({error}): se reanuda sola cuando pueda publicar ahí otra vez, o ejecuta `/campaign seguir {id} {channel}`} other {}}',
  'watching.more': '…y {count, plural, one {# canal más} other {# canales más}}.',
  'watching.fallback': 'Siguiendo: {subs, plural, one {# suscripción} other {# suscripciones}}',

  'try.noAgents':
    'Todavía no encontré agentes en tus campañas. Ejecuta `/campaign probar &lt;id_del_agente&gt;` con el id de un agente.',
  'try.header':
    '*🧪 Prueba un agente* en tu mensaje directo conmigo antes de lanzar una campaña. Agentes de tus campañas:',
  'try.button': 'Probar',
  'try.more': '…y {count, number} más: usa `/campaign probar &lt;id_del_agente&gt;`.',
  'try.fallback': 'Prueba un agente',
  'try.intro':
    '🧪 Estás probando el agente *{agent}*{named, select, yes { (`{agentId}`)} other {}}.\nEscribe aquí: cada mensaje va al agente como tu contacto de prueba (usuario final `{endUserId}`) y sus respuestas aparecen aquí. \nEjecuta `/campaign probar &lt;id_del_agente&gt;` otra vez para cambiar de agente.',
  'try.started': '🧪 Listo: abre tu mensaje directo conmigo y escríbele al agente *{agent}*.',

  'relay.tryHint':
    'Para hablar aquí con un agente, empieza con `/campaign probar &lt;id_del_agente&gt;` (o `/campaign probar` para elegir uno).',
  'relay.failed': '❌ Tu respuesta no se envió al servicio: {reason} Puedes escribirla otra vez.',
  'relay.unwatched':
    '🔒 Tu respuesta quedó en Slack: *no* se envió al cliente, porque {state, select, suspended {el seguimiento de la campaña #{id} está suspendido en este canal (consulta `/campaign siguiendo`)} other {este canal ya no sigue la campaña #{id}}}. Para volver a responder a sus clientes desde aquí, ejecuta `/campaign seguir {id}` en este canal.',
  'relay.kept.reply': '🔒 Tu respuesta quedó en Slack como nota interna: *no* se envió al cliente.',
  'relay.kept.try': '🔒 No puedes hablar con agentes con `/campaign probar`.',
  'relay.refused.external':
    '{kept} Solo los miembros del espacio de trabajo que lleva estas campañas pueden escribirles a sus clientes y agentes.',
  'relay.refused.guest': '{kept} Los invitados no pueden escribirles a clientes ni a agentes a través de esta app.',
  'relay.refused.unknownReply':
    '⚠️ Tu respuesta no se envió al cliente: no pude confirmar con Slack quién puede responder. Escríbela otra vez en un minuto.',
  'relay.refused.unknownTry':
    '⚠️ No pude confirmar con Slack quién puede hablar con agentes. Vuelve a intentarlo en un minuto.',
  'relay.refused.notResponder':
    '{kept} {whoCan}{what, select, reply { Empieza un mensaje con `note:` para dejarlo como nota interna sin este aviso.} other {}}',

  // The Home tab
  'common.close': 'Cerrar',
  'home.header': '📣 Campañas',
  'home.loading': '⏳ Leyendo las campañas del servicio de outreach…',
  'home.problem':
    '⚠️ *No pude leer las campañas del servicio de outreach.* {problem}{hasAge, select, yes {\nLa lista de abajo es del {readAt} y puede no estar al día.} other {}}\nPresiona *🔄 Actualizar* para intentarlo de nuevo.',
  'home.readOnly': '👁 Aquí puedes ver las campañas. {whoCan}',
  'home.count': '{label}\n*{count, number}*',
  'home.filter.status': 'Estado',
  'home.filter.channel': 'Canal',
  'home.filter.agent': 'Agente',
  'home.filter.allStatuses': 'Todos los estados',
  'home.filter.allChannels': 'Todos los canales',
  'home.filter.allAgents': 'Todos los agentes',
  'home.filterWord.pending': 'pendientes',
  'home.filterWord.ready': 'listas',
  'home.filterWord.active': 'activas',
  'home.filterWord.inactive': 'inactivas',
  'home.filterWord.cooldown': 'en reposo',
  'home.filterWord.finished': 'finalizadas',
  'home.filterWord.archived': 'archivadas',
  'home.refresh': '🔄 Actualizar',
  'home.campaign': '*{name}* · #{id}\n{state} · {channel} · Agente: {agent}\n🗓 {schedule}',
  'home.channelUnknown': 'Canal desconocido',
  'home.watchedIn': '👀 Seguida en {channels}{more, plural, =0 {} other { y # más}}',
  'home.notWatched': '👀 Ningún canal la sigue',
  'home.analyticsUnavailable': '📊 Las analíticas no están disponibles ahora: {problem}',
  'home.menu.edit': '✏️ Editar',
  'home.menu.upload': '📤 Subir contactos',
  'home.menu.watch': '👀 Seguir en un canal',
  'home.menu.calls': '📞 Ver llamadas',
  'home.empty': 'Todavía no hay campañas. Crea una con *➕ Nueva campaña* arriba o con `/campaign crear`.',
  'home.emptyReadOnly': 'Todavía no hay campañas.',
  'home.emptyFiltered':
    'Ninguna campaña coincide con _{filter}_. Elige otros filtros arriba, o "Todos" para ver todas las campañas.',
  'home.showing':
    '{total, plural, one {Se muestra {from, number}–{to, number} de # campaña{filtered, select, yes { que coincide con _{filter}_} other {}}} other {Se muestran {from, number}–{to, number} de # campañas{filtered, select, yes { que coinciden con _{filter}_} other {}}}} · página {page, number} de {pages, number} · primero las activas, luego las más nuevas',
  'home.readLine':
    '{hasStatus, select, yes {{status} · } other {}}Leída: {readAt}{capped, select, yes { · el servicio tiene más campañas que las primeras {cap, number} leídas aquí; usa los filtros para acotar la lista} other {}}',
  'home.more':
    '{count, plural, one {…y # campaña más en esta página que no se muestra} other {…y # campañas más en esta página que no se muestran}} (una pestaña Inicio tiene como máximo 100 bloques).',
  'home.staleMenu': 'Ese menú ya no funciona. Vuelve a abrir la pestaña Inicio para tener uno nuevo.',
  'home.watch.title': 'Seguir una campaña',
  'home.watch.submit': 'Seguir',
  'home.watch.question':
    '¿Qué canal debe seguir {named, select, yes {*{name}* (#{id})} other {la campaña #{id}}}? Las llamadas (o el avance de WhatsApp) se publican ahí a medida que ocurren.',
  'home.watch.channel': 'Canal',
  'home.watch.placeholder': 'Elige un canal',
  'home.watch.hint': 'Me uno solo a los canales públicos; a uno privado, invítame antes con `/invite @Outreach`.',
  'home.watch.stale': '⚠️ Este formulario ya no está al día. Ciérralo y vuelve a usar el menú.',
  'home.watch.refused': '⚠️ {text}',
  'home.noCampaignsRead': 'No se pudo leer ninguna campaña.',
  'home.serviceUnreadable': 'no se puede leer el servicio.',
  'home.watch.noChannel': 'Elige el canal que debe seguir la campaña.',

  'campaignDetail.header': 'Campaña #{id}',
  'campaignDetail.title': '*{name}*\n{state} · {channel}',
  'campaignDetail.field': '*{label}*\n{value}',
  'campaignDetail.agent': 'Agente',
  'campaignDetail.agentNamed': '{name}\n`{id}`',
  'campaignDetail.agentId': '`{id}`',
  'campaignDetail.integration': 'Integración',
  'campaignDetail.none': 'ninguna',
  'campaignDetail.timezone': 'Zona horaria',
  'campaignDetail.serviceDefaultZone': 'la predeterminada del servicio',
  'campaignDetail.created': 'Creada',
  'campaignDetail.retries': 'Reintentos',
  'campaignDetail.messageLimit': 'Límite de mensajes',
  'campaignDetail.template': 'Plantilla',
  'campaignDetail.templateAlt': 'Plantilla alternativa',
  'campaignDetail.scheduleAndCycles': '*Horario semanal*\n🗓 {schedule}\n*Ciclos*\n🔁 {cycles}',
  'campaignDetail.analytics': '*Estadísticas*',
  'campaignDetail.moreMetrics':
    '…y {count, plural, one {# métrica más que no se muestra} other {# métricas más que no se muestran}}.',
  'format.percent': '{value} %',
  'campaignDetail.analytics.calls': 'Llamadas',
  'campaignDetail.analytics.contactsCalled': 'Contactos llamados',
  'campaignDetail.analytics.contactsAnswered': 'Contactos que contestaron',
  'campaignDetail.analytics.answerRate': 'Tasa de respuesta',
  'campaignDetail.analytics.contactsConverted': 'Contactos convertidos',
  'campaignDetail.analytics.conversionRate': 'Tasa de conversión',
  'campaignDetail.analytics.sent': 'Enviados',
  'campaignDetail.analytics.delivered': 'Entregados',
  'campaignDetail.analytics.read': 'Leídos',
  'campaignDetail.analytics.replied': 'Respondidos',
  'campaignDetail.analytics.converted': 'Convertidos',
  'campaignDetail.analytics.deliveryRate': 'Tasa de entrega',
  'campaignDetail.analytics.readRate': 'Tasa de lectura',
  'campaignDetail.longText': '*{title}*\n{text}',
  'campaignDetail.shortened': '… _(recortado: el texto completo no cabe en un mensaje de Slack)_',
  'campaignDetail.description': 'Descripción',
  'campaignDetail.firstMessage': 'Primer mensaje',
  'campaignDetail.button.contacts': '👥 Contactos',
  'campaignDetail.button.calls': '📞 Llamadas',
  'campaignDetail.button.upload': '📤 Subir contactos',
  'campaignDetail.button.watchHere': '👀 Seguir aquí',
  'campaignDetail.fallback': 'Campaña {name} (#{id}): {state}',

  'campaignDetail.cycles': 'Ciclos',
  'campaignForm.day.mon': 'Lunes',
  'campaignForm.day.tue': 'Martes',
  'campaignForm.day.wed': 'Miércoles',
  'campaignForm.day.thu': 'Jueves',
  'campaignForm.day.fri': 'Viernes',
  'campaignForm.day.sat': 'Sábado',
  'campaignForm.day.sun': 'Domingo',
  'campaignForm.tooLongToEdit':
    '*{label}* tiene {length, number} caracteres, más de los que caben en este formulario ({max, number}), así que no se puede cambiar aquí y se queda como está.',
  'campaignForm.integrationOption.phone': '{id} (teléfono)',
  'campaignForm.integrationOption.whatsapp': '{id} (WhatsApp)',
  'campaignForm.title.create': 'Nueva campaña',
  'campaignForm.title.edit': 'Editar campaña',
  'campaignForm.title.editId': 'Editar campaña #{id}',
  'campaignForm.title.editShort': 'Editar #{id}',
  'campaignForm.title.couldNotSave': 'No se pudo guardar',
  'campaignForm.title.creating': 'Creando…',
  'campaignForm.title.saving': 'Guardando…',
  'campaignForm.title.done': 'Listo',
  'campaignForm.submit.create': 'Crear',
  'campaignForm.submit.save': 'Guardar cambios',
  'campaignForm.close': 'Cerrar',
  'campaignForm.channel': 'Canal',
  'campaignForm.channel.hint': 'Elígelo primero: el formulario muestra entonces los campos de ese canal.',
  'campaignForm.chooseChannelFirst':
    'Elige un canal arriba para ver sus campos: primer mensaje y ciclos para llamadas telefónicas, plantillas para WhatsApp.',
  'campaignForm.name': 'Nombre',
  'campaignForm.agent': 'Agente',
  'campaignForm.agent.placeholder': 'Escribe para buscar agentes',
  'campaignForm.agent.hint': 'Agentes vistos en campañas existentes. ¿No aparece? Escribe su id en el campo siguiente.',
  'campaignForm.agentTyped': 'Id del agente',
  'campaignForm.agentTyped.orId': '…o id del agente',
  'campaignForm.agentTyped.placeholder': 'p. ej. 7c9e6679-7425-40de-944b-e07fc1f90ae7',
  'campaignForm.agentTyped.hint': 'Solo para un agente que no está en la lista: su id público (un UUID).',
  'campaignForm.agentTyped.hintNoAgents':
    'Todavía no hay agentes vistos en campañas existentes: escribe el id público del agente (un UUID).',
  'campaignForm.agentNamed': '{name} (`{id}`)',
  'campaignForm.integration': 'Integración',
  'campaignForm.integration.placeholder': 'Escribe para buscar integraciones',
  'campaignForm.integration.hintAgent':
    'Las integraciones de este agente vistas en campañas existentes, para el canal elegido.',
  'campaignForm.integration.hintGrouped': 'Agrupadas por agente: elige una que pertenezca al agente elegido.',
  'campaignForm.integrationTyped': 'Id de la integración',
  'campaignForm.integrationTyped.orId': '…o id de la integración',
  'campaignForm.integrationTyped.hint':
    'Solo para una integración que no está en la lista. Debe pertenecer al agente elegido.',
  'campaignForm.timezone': 'Zona horaria',
  'campaignForm.timezone.placeholder': 'Escribe para buscar, p. ej. Mexico',
  'campaignForm.timezone.hint': 'El horario semanal se lee en esta zona. Predeterminada: {zone}.',
  'campaignForm.retries.hint': 'Intentos extra por contacto: de {min} a {max}. Predeterminado: {byDefault}.',
  'campaignForm.messageLimit.hint': 'De {min, number} a {max, number}. Predeterminado: {byDefault, number}.',
  'campaignForm.firstMessage': 'Primer mensaje',
  'campaignForm.firstMessage.hint':
    'Lo primero que dice el agente cuando contestan la llamada. Solo llamadas telefónicas.',
  'campaignForm.template': 'Plantilla',
  'campaignForm.template.hint': 'Nombre de la plantilla de WhatsApp aprobada que se envía.',
  'campaignForm.templateAlt': 'Plantilla alternativa',
  'campaignForm.templateAlt.hint': 'Nombre de una segunda plantilla, usada como alternativa. Solo WhatsApp.',
  'campaignForm.weeklySchedule': 'Horario semanal',
  'campaignForm.weeklySchedule.hint':
    'Marca los días en que corre y dale a cada uno una hora de inicio y de fin (24 horas, en la zona horaria de la campaña). Sin días marcados: corre a cualquier hora.',
  'campaignForm.days': 'Días en que corre',
  'campaignForm.cycleDays': 'Días en que corren los ciclos',
  'campaignForm.days.hint': 'Cada día marcado necesita abajo una hora de inicio y una de fin.',
  'campaignForm.dayStart': '{day}: inicio',
  'campaignForm.dayStop': '{day}: fin',
  'campaignForm.cycles': 'Ciclos',
  'campaignForm.repeat': 'Repetir',
  'campaignForm.repeat.option': 'Volver a correr la campaña en rondas (ciclos)',
  'campaignForm.repeat.hint': 'Los ciclos solo se pueden activar ahora, al crear la campaña.',
  'campaignForm.mode': 'Modo',
  'campaignForm.mode.hint': 'No se puede cambiar una vez creada la campaña.',
  'campaignForm.mode.cooldown': 'Reposo: la siguiente ronda después de una pausa',
  'campaignForm.mode.scheduled': 'Programado: rondas en un horario semanal',
  'campaignForm.maxIterations': 'Rondas como máximo',
  'campaignForm.maxIterations.hint': 'Cuántas rondas en total: de {min} a {max}.',
  'campaignForm.cooldownMinutes': 'Minutos entre rondas',
  'campaignForm.cooldownMinutes.hint':
    'Espera tras una ronda antes de la siguiente: de {min} a {max, number} (un día).',
  'campaignForm.filterStatuses': 'Omitir contactos cuyo estado sea',
  'campaignForm.filterStatuses.placeholder': 'Estados que omitir',
  'campaignForm.filterStatuses.hint': 'Los contactos en estos estados quedan fuera de la siguiente ronda.',
  'campaignForm.filterTags': 'Omitir contactos con las etiquetas (ids de etiqueta)',
  'campaignForm.filterTags.placeholder': 'ids de etiqueta separados por comas',
  'campaignForm.filterTags.hint':
    'Ids de etiquetas de hilo, separados por comas o espacios. El servicio no los vuelve a mostrar una vez guardados.',
  'campaignForm.cycleSchedule': '*Horario de los ciclos:* cuándo corren las rondas. Solo se usa en modo programado.',
  'campaignForm.cyclesStart': 'Inicio de los ciclos',
  'campaignForm.cyclesEnd': 'Fin de los ciclos',
  'campaignForm.cyclesOffFixed': 'Esta campaña no tiene ciclos. Solo se pueden activar al crear una campaña.',
  'campaignForm.cyclesOnFixed':
    'Los ciclos están activos, en modo *{mode, select, scheduled {programado} other {reposo}}* (fijado al crearla).',
  'campaignForm.fixedCyclesOn': 'Sí ({mode, select, scheduled {programado} other {reposo}})',
  'campaignForm.fixedNote': 'Esto se fijó al crear la campaña y no se puede cambiar.',
  'campaignForm.loading': '⏳ {what}',
  'campaignForm.loading.agents': 'Cargando los agentes vistos en campañas existentes…',
  'campaignForm.loading.campaign': 'Cargando la campaña #{id}…',
  'campaignForm.finishedReadOnly':
    '🏁 *{name}* (#{id}) ya finalizó. Las campañas finalizadas son de solo lectura, así que no hay nada que editar.',
  'campaignForm.stateAndChannel': '{state} · {channel}',
  'campaignForm.fieldNote': '• {note}',
  'campaignForm.backToForm': 'Volver al formulario',
  'campaignForm.backToForm.note': 'Cierra esto para volver al formulario: todo lo que escribiste sigue ahí.',
  'campaignForm.working.create': '⏳ Creando la campaña: el servicio está tardando un poco.',
  'campaignForm.working.save': '⏳ Guardando los cambios: el servicio está tardando un poco.',
  'campaignForm.working.note': 'Esta vista se actualiza sola cuando termine.',
  'campaignForm.noChanges': 'No cambiaste nada, así que la campaña #{id} quedó como estaba.',
  'campaignForm.outOfDate':
    'Este formulario es de una versión anterior. Ciérralo y vuelve a abrirlo con `/campaign crear`.',
  'campaignForm.serviceRefusedFields': 'El servicio rechazó algunos campos:',
  'campaignForm.doneCreated': '✅ Se creó la campaña *{name}* (#{id}).',
  'campaignForm.doneSaved': '✅ Se guardó la campaña *{name}* (#{id}).',
  'campaignForm.postFailedNote':
    '(No pude publicar esto en {channel}: invítame ahí para ver los resultados en el canal.)',
  'campaignForm.status': 'Estado',
  'campaignForm.schedule': 'Horario',
  'campaignForm.created': '✅ {who} creó la campaña *{name}* (#{id}).',
  'campaignForm.created.fallback': 'Campaña {name} (#{id}) creada',
  'campaignForm.watchConfirm.title': '¿Seguir en este canal?',
  'campaignForm.watchConfirm.text':
    'El avance de *{name}* (#{id}) se publicará en este canal hasta que termine o alguien la deje de seguir.',
  'campaignForm.watchConfirm.confirm': 'Seguir aquí',
  'campaignForm.next':
    'Siguiente paso: sube los contactos y luego actívala. Al activarla empieza a contactar a las personas.',
  'campaignForm.nothing': 'nada',
  'campaignForm.updated': '✏️ {who} actualizó la campaña *{name}* (#{id}): {fields}',
  'campaignForm.updated.fallback': 'Campaña {name} (#{id}) actualizada',

  // The upload modal and its views
  'uploadModal.title': 'Subir contactos',
  'uploadModal.submit': 'Subir',
  'uploadModal.intro': 'Agrega contactos a *{name}* (#{id}), ahora {state}.',
  'uploadModal.file': 'Archivo de contactos',
  'uploadModal.fileHint':
    'CSV, TSV, TXT o Excel (.xlsx, primera hoja), de hasta {maxSize}. Una fila de encabezados y después un contacto por fila. Una columna debe tener el número de teléfono (teléfono, celular, móvil, whatsapp, phone…); nombre, contexto y f_id son opcionales, y cualquier otra columna se guarda como datos extra.',
  'uploadModal.duplicates': 'Números que ya están en la campaña',
  'uploadModal.policy.skip': 'Omitirlos',
  'uploadModal.policy.skipDescription': 'Deja como está el contacto que ya está en la campaña.',
  'uploadModal.policy.update': 'Actualizarlos',
  'uploadModal.policy.updateDescription': 'Reemplaza nombre, contexto, datos extra y f_id con los del archivo.',
  'uploadModal.country': 'País de los números sin código de país',
  'uploadModal.countryHint': 'Los números escritos con + y código de país conservan su propio país.',
  'uploadModal.rejectedNote':
    'Las filas sin número, con un número no válido o con un número repetido en el archivo no se envían; te llega un CSV con la lista en un mensaje directo.',
  'uploadModal.loading': '⏳ Cargando la campaña #{id}…',
  'uploadModal.problem': '⚠️ {text}',
  'uploadModal.problemText': '{sentence}',
  'uploadModal.checking': '⏳ Revisando {named, select, yes {*{name}*} other {el archivo}} y la campaña…',
  'uploadModal.checkingNote': 'Esta vista se actualiza sola en un momento.',
  'uploadModal.started':
    '✅ Subiendo *{name}*. Sigue su avance en el mensaje {inDm, select, yes {de tu conversación directa con la app} other {en {channel}}}.',
  'uploadModal.staleForm':
    'Este formulario ya no está al día. Ciérralo y empieza de nuevo con `/campaign subir &lt;id&gt;`.',
  'uploadModal.staleButton': 'Este botón ya no está al día. Usa `/campaign subir &lt;id&gt;` en su lugar.',
  'uploadModal.finished':
    'La campaña "{name}" (#{id}) está finalizada y no se pueden agregar contactos a una campaña finalizada. Crea una campaña nueva para estos contactos.',
  'uploadModal.chooseFile': 'Elige un archivo CSV, TSV, TXT o XLSX para subir.',
  'uploadModal.oneFile': 'Elige un solo archivo a la vez.',
  'uploadModal.whichFile': 'Slack no indicó qué archivo elegiste; elígelo de nuevo.',
  'uploadModal.unexpected': 'Algo salió mal de forma inesperada; los detalles están en los registros de la app.',
  'uploadModal.crashed':
    'Algo salió mal de forma inesperada; los detalles están en los registros de la app. No se envió nada.',
  'uploadModal.alreadyRunning':
    'Este archivo ya se está subiendo a esta campaña: su mensaje de avance muestra cuánto lleva.',
  'uploadModal.alreadyDone':
    'Este archivo ya se subió a esta campaña (su resumen está en el mensaje de avance). Para subirlo otra vez, vuelve a elegir el archivo.',
  'uploadModal.beingChecked': 'Este archivo ya se está revisando para esta campaña; espera un momento.',

  'campaignForm.error.numberMissing':
    'Escribe {field, select, retries {los reintentos} messageLimit {el límite de mensajes} rounds {el número de rondas} other {los minutos entre rondas}}: un número entero de {min} a {max}.',
  'campaignForm.error.notANumber':
    '"{raw}" no es un número entero: escribe {field, select, retries {los reintentos} messageLimit {el límite de mensajes} rounds {el número de rondas} other {los minutos entre rondas}} de {min} a {max}.',
  'campaignForm.error.outOfRange':
    '{field, select, retries {Los reintentos deben} messageLimit {El límite de mensajes debe} rounds {El número de rondas debe} other {Los minutos entre rondas deben}} estar entre {min} y {max, number} (escribiste {n}).',
  'campaignForm.error.notATime': '"{raw}" no es una hora: elige una, p. ej. 09:00.',
  'campaignForm.error.dayNoStart': '{day} está marcado: dale una hora de inicio o desmarca {day}.',
  'campaignForm.error.dayNoStop': '{day} está marcado: dale una hora de fin o desmarca {day}.',
  'campaignForm.error.stopBeforeStart':
    '{day} termina a las {stop} pero empieza a las {start}: la hora de fin debe ser posterior a la de inicio.',
  'campaignForm.error.notADate': '"{raw}" no es una fecha: elige una en el calendario.',
  'campaignForm.error.tagTooLong': '"{raw}…" es demasiado largo para ser un id de etiqueta: separa los ids con comas.',
  'campaignForm.error.notAContactStatus':
    '{count, plural, one {{raw} no es un estado de contacto telefónico} other {{raw} no son estados de contacto telefónico}}: elige entre {statuses}.',
  'campaignForm.error.endBeforeStart':
    'Los ciclos terminan el {end}, antes de empezar el {start}: elige una fecha de fin igual o posterior a la de inicio.',
  'campaignForm.error.nameMissing': 'Ponle un nombre a la campaña.',
  'campaignForm.error.nameTooLong': 'El nombre tiene {length} caracteres: acórtalo a {max} como máximo.',
  'campaignForm.error.timezoneMissing': 'Elige una zona horaria.',
  'campaignForm.error.unknownTimezone': '"{raw}" no es una zona horaria que esta app conozca: elige una de la lista.',
  'campaignForm.error.pickedAndTyped':
    'Elegiste {what, select, agent {el agente} other {la integración}} {picked} en la lista y escribiste {typed} aquí: deja solo uno.',
  'campaignForm.error.channelMissing': 'Elige el canal: llamada telefónica o WhatsApp.',
  'campaignForm.error.agentMissing': 'Elige el agente o escribe su id.',
  'campaignForm.error.notAnAgentId':
    '"{raw}" no es un id de agente: los ids de agente son UUID como 7c9e6679-7425-40de-944b-e07fc1f90ae7.',
  'campaignForm.error.integrationMissing': 'Elige la integración o escribe su id.',
  'campaignForm.error.otherAgentsIntegration':
    'La integración {integration} pertenece al agente {agent}, no al agente elegido: elige una de las integraciones del agente elegido.',
  'campaignForm.error.integrationChannel':
    'La integración {integration} es de {type, select, whatsapp {WhatsApp} other {teléfono}}: elige una de {channel, select, whatsapp {WhatsApp} other {teléfono}} o cambia el canal.',

  // Upload progress, summary, the failed-rows CSV
  'uploadProgress.percent': '{p} %',
  'uploadProgress.policy.skip': 'los números que ya están en la campaña se omiten',
  'uploadProgress.policy.update': 'los números que ya están en la campaña se actualizan',
  'uploadProgress.what': '*{file}* a *{campaign}* (#{id})',
  'uploadProgress.field.rowsRead': '*Filas leídas*\n{n, number}',
  'uploadProgress.field.sent': '*Enviados*\n{n, number}',
  'uploadProgress.field.created': '*Creados*\n{n, number}',
  'uploadProgress.field.updated': '*Actualizados*\n{n, number}',
  'uploadProgress.field.skipped': '*Omitidos (ya estaban en la campaña)*\n{n, number}',
  'uploadProgress.field.failed': '*Fallidos*\n{n, number}',
  'uploadProgress.resumed':
    '{row, plural, =0 {↩️ La app se reinició durante esta subida; empezó de nuevo desde la primera fila (todavía no se había enviado nada).} other {↩️ La app se reinició durante esta subida; siguió después de la fila # (las filas anteriores ya se habían enviado).}}',
  'uploadProgress.waitingCampaign':
    '⏳ En espera: primero tiene que terminar la subida de *{file}* a esta campaña (una subida por campaña a la vez). Esta empieza sola.',
  'uploadProgress.waitingBusy':
    '⏳ Esperando su turno: {running, plural, one {hay # subida en curso} other {hay # subidas en curso}}{ahead, plural, =0 {} one { y # antes que esta} other { y # antes que esta}}. Esta empieza sola.',
  'uploadProgress.head': '📤 {who} está subiendo {what}',
  'uploadProgress.reading': '⏳ Leyendo el archivo…',
  'uploadProgress.bar': '`{bar}` {percent}',
  'uploadProgress.note': '⏸ {note}',
  'uploadProgress.footer': 'Duplicados: {policy}. Este mensaje se actualiza solo hasta que termine la subida.',
  'uploadProgress.fallback': '📤 Subiendo {what}{hasPercent, select, yes { ({percent})} other {}}',
  'uploadProgress.summaryTitle':
    '{stopped, select, yes {⚠️ Subida detenida: {what} (de {who})} other {✅ Subida terminada: {what} (de {who})}}',
  'uploadProgress.result':
    '`{bar}` {stopped, select, yes {detenida} other {100 %}}\n{created, plural, one {# agregado} other {# agregados}}, {updated, plural, one {# actualizado} other {# actualizados}}, {skipped, number} ya en la campaña, {failed, plural, one {# no agregado} other {# no agregados}}.',
  'uploadProgress.whyStopped': '*Por qué se detuvo:* {reason}',
  'uploadProgress.notAdded': '*No agregados:* {groups}',
  'uploadProgress.group.invalid': '{count, plural, one {# número no válido} other {# números no válidos}}',
  'uploadProgress.group.empty': '{count, plural, one {# fila sin número} other {# filas sin número}}',
  'uploadProgress.group.repeated': '{count, plural, one {# repetido en el archivo} other {# repetidos en el archivo}}',
  'uploadProgress.group.broken':
    '{count, plural, one {# fila con más valores que columnas} other {# filas con más valores que columnas}}',
  'uploadProgress.group.tooLong':
    '{count, plural, one {# fila con un valor demasiado largo} other {# filas con un valor demasiado largo}}',
  'uploadProgress.group.service':
    '{count, plural, one {# rechazado por el servicio de outreach} other {# rechazados por el servicio de outreach}}',
  'uploadProgress.reportInThread': '📎 Cada fila que no se agregó aparece en el CSV de este hilo.',
  'uploadProgress.reportInDm':
    '📎 Las filas que no se agregaron (con sus números de teléfono) se enviaron a {who} en un mensaje directo.',
  'uploadProgress.reportFailed': 'No se pudo enviar a {who} la lista de filas no agregadas.',
  'uploadProgress.duplicates': 'Duplicados: {policy}.',
  'uploadProgress.took': 'Tardó {duration}.',
  'uploadProgress.summaryFallback':
    '{stopped, select, yes {⚠️ Subida detenida: {what}. {reason}} other {✅ Subida terminada: {what}: {created, plural, one {# agregado} other {# agregados}}, {failed, plural, one {# no agregado} other {# no agregados}}.}}',
  'uploadProgress.reportComment':
    '{rows, plural, one {# fila} other {# filas}} de *{file}*{into, select, yes { para *{campaign}*{hasId, select, yes { (#{id})} other {}}} other {}} no se {rows, plural, one {agregó} other {agregaron}}: número de fila, el teléfono tal como está escrito y el motivo. {rows, plural, one {Corrígela y súbela de nuevo.} other {Corrígelas y sube solo esas filas de nuevo.}}{capped, select, yes { El CSV lista las primeras {listed, number}; las otras {rest, number} no aparecen (corrige las filas de la lista y vuelve a subir el archivo para ver las siguientes).} other {}}',
  'uploadProgress.stoppedDm': '⚠️ Tu subida {what} se detuvo. {reason}',
  'uploadProgress.reportFileName': 'filas-no-agregadas-{name}.csv',
  'uploadProgress.csvHeader': 'fila,valor,motivo',

  // An upload's run: retries, why it stopped, the service's refusals in the failed-rows CSV
  'uploadRun.retrying':
    'El servicio de outreach no está recibiendo contactos en este momento ({problem}); se vuelve a intentar en {seconds} s. No se pierde nada.',
  'uploadRun.kept':
    '{sent, plural, =0 {No se agregó nada.} one {El contacto que el servicio confirmó antes está en la campaña.} other {Los # contactos que el servicio confirmó antes están en la campaña.}}',
  'uploadRun.withKept': '{sentence} {kept}',
  'uploadRun.stalled':
    'La app se detuvo {stops, number} veces mientras esta subida estaba en curso, cada vez antes de que se agregara otro lote de contactos{lastRow, plural, =0 {} other { (el último terminó en la fila #)}}, así que no se vuelve a intentar: puede que algo del archivo sea lo que detiene la app. Revisa el archivo, o divídelo, y súbelo de nuevo; los contactos que ya se agregaron se reconocen y no se agregan dos veces. {kept}',
  'uploadRun.service':
    '{sentence} {kept}{again, select, yes { Vuelve a subir el archivo más tarde para agregar el resto; los contactos que ya se agregaron se reconocen y no se agregan dos veces.} other {}}',
  'uploadRun.unexpected': 'Algo salió mal de forma inesperada; los detalles están en los registros de la app. {kept}',
  'uploadRun.truncated':
    'El archivo tiene más filas que las {maxRows, number} que lee una subida: se leyeron las filas hasta la {lastRow, number}, y la fila {nextRow, number} y las siguientes no. Pon esas filas en otro archivo (con la fila de encabezados) y súbelo.',
  'uploadRun.service.invalidPhone': 'el servicio de outreach rechazó el número por no ser válido',
  'uploadRun.service.missingContact': 'el servicio de outreach no recibió ningún número para esta fila',
  'uploadRun.service.serverError':
    'el servicio de outreach no pudo agregarlo (error interno); vuelve a subir esta fila',
  'uploadRun.service.noReason': 'el servicio de outreach no lo agregó (sin motivo)',
  'uploadRun.service.other': 'el servicio de outreach no lo agregó ({error})',
  // Why a file could not be read (FileFormatError / SlackFileError problems: src/slack/upload/file-problem-text.ts)
  'fileProblem.binary':
    '{named, select, yes {"{file}"} other {El archivo}} no es un archivo CSV ni de Excel: contiene datos binarios. Sube un archivo .csv, .tsv, .txt o .xlsx. Ábrelo en Excel o Google Sheets y guárdalo como .xlsx o "CSV UTF-8"; luego sube ese archivo.',
  'fileProblem.emptyBytes':
    '{named, select, yes {"{file}"} other {El archivo}} está vacío (0 bytes). Sube un archivo con una fila de encabezados y contactos.',
  'fileProblem.openDocument':
    '{named, select, yes {"{file}"} other {El archivo}} es un archivo OpenDocument (LibreOffice / .ods), que no se puede leer. Ábrelo en Excel o Google Sheets y guárdalo como .xlsx o "CSV UTF-8"; luego sube ese archivo.',
  'fileProblem.emptyZip':
    '{named, select, yes {"{file}"} other {El archivo}} es un archivo ZIP vacío, no un libro de Excel.',
  'fileProblem.oldExcel':
    '{named, select, yes {"{file}"} other {El archivo}} es un libro de Excel 97-2003 del formato antiguo (.xls), que no se puede leer. Ábrelo en Excel o Google Sheets y guárdalo como .xlsx o "CSV UTF-8"; luego sube ese archivo.',
  'fileProblem.pdf':
    '{named, select, yes {"{file}"} other {El archivo}} es un PDF, no una hoja de cálculo. Sube un archivo .csv o .xlsx.',
  'fileProblem.webPage':
    '{named, select, yes {"{file}"} other {El archivo}} es una página web (una tabla HTML), no un archivo CSV ni de Excel. Ábrelo en Excel o Google Sheets y guárdalo como .xlsx o "CSV UTF-8"; luego sube ese archivo.',
  'fileProblem.xmlFile':
    '{named, select, yes {"{file}"} other {El archivo}} es un archivo XML (quizá "Hoja de cálculo XML 2003"), no un archivo CSV ni de Excel. Ábrelo en Excel o Google Sheets y guárdalo como .xlsx o "CSV UTF-8"; luego sube ese archivo.',
  'fileProblem.noWorksheet':
    '{named, select, yes {"{file}"} other {El archivo}} es un archivo ZIP sin ninguna hoja de Excel. Sube un libro .xlsx o un archivo .csv.',
  'fileProblem.tooComplex':
    '{named, select, yes {"{file}"} other {El archivo}} necesita más memoria para leerse de la que puede usar una subida: está dañado o fue hecho así a propósito. Ábrelo en Excel o Google Sheets, exporta la hoja como "CSV UTF-8" y sube ese archivo.',
  'fileProblem.passwordProtected':
    '{named, select, yes {"{file}"} other {El archivo}} está protegido con contraseña. Quita la contraseña en Excel (Archivo → Información → Proteger libro), guárdalo y vuelve a subirlo.',
  'fileProblem.noRows':
    '{named, select, yes {"{file}"} other {El archivo}} no tiene filas: está vacío o solo tiene líneas en blanco. Sube un archivo con una fila de encabezados y contactos.',
  'fileProblem.noRowsInSheet':
    'La hoja "{sheet}" de {named, select, yes {"{file}"} other {el archivo}} no tiene filas: está vacía o solo tiene líneas en blanco. Sube un archivo con una fila de encabezados y contactos.',
  'fileProblem.workbookTooLarge':
    '{named, select, yes {"{file}"} other {El archivo}} pesa más de {mb, number} MB, el máximo para un libro de Excel aquí. Exporta la hoja como "CSV UTF-8" y sube ese archivo.',
  'fileProblem.tooManyColumns':
    '{named, select, yes {"{file}"} other {El archivo}} tiene {width, number} columnas en su fila de encabezados; se pueden leer como máximo {max, number}. Deja las columnas que necesitas (teléfono, nombre, notas…) y vuelve a subirlo; si la primera fila no es la de encabezados, borra las filas que hay encima.',
  'fileProblem.noContacts':
    '{named, select, yes {"{file}"} other {El archivo}} tiene una fila de encabezados pero ningún contacto: no hay filas debajo de {headers}. Agrega un contacto por fila y vuelve a subirlo.',
  'fileProblem.quoteNotClosed':
    '{named, select, yes {"{file}"} other {El archivo}} no es un CSV válido: la fila {row} abre un valor entre comillas con " que nunca se cierra, así que no se pudo leer el resto del archivo. Cierra las comillas, o quítalas si son parte de un valor.',
  'fileProblem.recordTooLong':
    '{named, select, yes {"{file}"} other {El archivo}} no es un CSV válido: la fila {row} tiene más de {max} caracteres: lo más probable es que un " abra un valor entre comillas que nunca se cierra. Cierra las comillas, o quítalas si son parte de un valor.',
  'fileProblem.textAfterQuote':
    '{named, select, yes {"{file}"} other {El archivo}} no es un CSV válido: la fila {row} tiene texto justo después del " que cierra un valor entre comillas. Pon todo el valor entre comillas y duplica las comillas de adentro ("así ""esto""").',
  'fileProblem.csvUnreadable':
    '{named, select, yes {"{file}"} other {El archivo}} no es un CSV válido: no se pudo leer la fila {row} ({detail}).',
  'fileProblem.zipManyParts':
    '{named, select, yes {"{file}"} other {El archivo}} es un archivo ZIP de {parts, number} partes, no un libro de Excel. Ábrelo en Excel y exporta la hoja como "CSV UTF-8"; luego sube ese archivo.',
  'fileProblem.unpacksTooLarge':
    '{named, select, yes {"{file}"} other {El archivo}} ocupa más de {max} al descomprimirse, el máximo que puede tener un libro aquí ({declared, select, yes {sus partes declaran al menos {total}; solo {part}, {partSize}} other {{part} lo supera al descomprimirse}}). Está dañado o no es una lista de contactos. Ábrelo en Excel y exporta la hoja como "CSV UTF-8"; luego sube ese archivo.',
  'fileProblem.lyingPart':
    '{named, select, yes {"{file}"} other {El archivo}} no se puede leer: su parte {part} se descomprime en más de lo que dice su propio encabezado, algo que solo hace un archivo dañado o uno hecho para agotar al lector. Ábrelo en Excel y exporta la hoja como "CSV UTF-8"; luego sube ese archivo.',
  'fileProblem.unreadableWorkbook':
    '{named, select, yes {"{file}"} other {El archivo}} parece un libro de Excel pero no se pudo leer ({damage, select, cutShort {está cortado o dañado: le falta el final de su archivo ZIP} damagedPart {una parte está dañada: {detail}} other {{detail}}}). Ábrelo en Excel y vuelve a guardarlo como .xlsx, o exporta la hoja como "CSV UTF-8".',
  'fileProblem.noPhoneColumn':
    '{named, select, yes {"{file}": } other {}}No se encontró una columna de teléfono. Columnas del archivo: {hasColumns, select, yes {{listed}{more, plural, =0 {} one { y # más} other { y # más}}} other {(ninguna)}}. Ponle a la columna de los números el nombre "Teléfono", "Celular", "WhatsApp" o "Phone" (la primera fila debe ser la de encabezados).',
  'slackFile.tooLarge':
    '"{file}"{hasSize, select, yes { pesa {size};} other { pesa más de lo permitido;}} se pueden subir archivos de hasta {max}. Divídelo en archivos más pequeños (o quita las columnas que no necesitas) y sube cada uno.',
  'slackFile.badUrl':
    'Slack dio una dirección de descarga que la app no usará ({why, select, none {no dio ninguna} notUrl {no es una URL} credentials {lleva credenciales} scheme {URL {detail}} apiMethod {es un método de la API de Slack, no un archivo} other {http a {detail}, no https}}); no se leyó nada.',
  'slackFile.outsideSlack':
    'Slack dice que los datos de este archivo están fuera de Slack (en {plainHttp, select, yes {http a {host}, no https} other {{host}}}), y la app solo envía su token de Slack a Slack; no se leyó nada. Sube el archivo en sí (elígelo desde tu computadora) en lugar de un enlace o un archivo guardado en otro lugar, y vuelve a enviar.',
  'slackFile.externalLink':
    '"{file}" es un enlace a un archivo guardado fuera de Slack (en {known, select, yes {{where}} other {otro servicio}}), no un archivo subido a Slack; la app no lo abre. Sube el archivo en sí (elígelo desde tu computadora) en lugar de un enlace o un archivo guardado en otro lugar, y vuelve a enviar.',
  'slackFile.badFileId': 'El id de archivo que envió Slack no es válido.',
  'slackFile.deletedOrHidden': 'Slack ya no tiene este archivo (se borró, o la app no puede verlo). Vuelve a subirlo.',
  'slackFile.deleted': 'Slack ya no tiene este archivo (se borró). Vuelve a subirlo.',
  'slackFile.unreachable': 'No se pudo contactar a Slack para leer el archivo; vuelve a intentarlo en un momento.',
  'slackFile.otherFile': 'Slack describió otro archivo distinto del que elegiste.',
  'slackFile.refusedInfo': 'Slack se negó a describir el archivo ({code}).',
  'slackFile.unavailable':
    'Slack no envió el archivo ({why, select, network {error de red} http {HTTP {status}} noBody {la respuesta llegó sin contenido} other {la descarga se cortó}}); vuelve a intentarlo en un momento.',
  'slackFile.redirectedAway':
    'Slack redirigió la descarga a otro servidor ({host}), al que la app no envía su token de Slack; no se leyó nada. Sube el archivo en sí (elígelo desde tu computadora) en lugar de un enlace o un archivo guardado en otro lugar, y vuelve a enviar.',
  'slackFile.notAuthorized':
    'Slack no le entregó el archivo a la app ({why, select, signIn {respondió con una redirección para iniciar sesión} http {HTTP {status}} other {envió una página web en lugar del archivo}}). La app necesita el permiso files:read; pídele a un administrador que la reinstale con ese permiso.',
  // Why a row was not added (the failed-rows CSV: src/slack/upload/row-reason-text.ts)
  'rowReason.emptyNumber': 'número vacío',
  'rowReason.noDigits': 'sin dígitos: no es un número de teléfono',
  'rowReason.severalNumbers': 'tiene más de un número: pon un número por fila',
  'rowReason.scientific':
    'está escrito en notación científica, así que se perdieron sus últimos dígitos: dale a la columna formato de Texto (o de número sin decimales) en la hoja de cálculo y vuelve a exportar el archivo',
  'rowReason.letters': 'tiene letras: escribe el número solo con dígitos',
  'rowReason.unknownCountryCode': 'código de país desconocido',
  'rowReason.shortUnparsed': 'demasiado corto',
  'rowReason.longUnparsed': 'demasiado largo',
  'rowReason.notPhone': 'no es un número de teléfono',
  'rowReason.extension':
    'tiene una extensión ({ext}): las llamadas no pueden marcar extensiones; quítala para llamar al número principal',
  'rowReason.tooShort':
    'demasiado corto: {digits} dígitos{hasOld, select, yes { (sin el antiguo prefijo {oldPrefix})} other {}}; un número de {foreign, select, yes {{country} (+{callingCode})} other {{country}}} tiene {oneLength, select, yes {{min}} other {{min} a {max}}}',
  'rowReason.tooLong':
    'demasiado largo: {digits} dígitos{hasOld, select, yes { (sin el antiguo prefijo {oldPrefix})} other {}}; un número de {foreign, select, yes {{country} (+{callingCode})} other {{country}}} tiene {oneLength, select, yes {{min}} other {{min} a {max}}}',
  'rowReason.invalidForCountry':
    'no es un número válido de {foreign, select, yes {{country} (+{callingCode})} other {{country}}}{hasOld, select, yes { (ni siquiera sin el antiguo prefijo {oldPrefix})} other {}}',
  'rowReason.cellTooLong':
    'el valor de la columna "{column}" tiene {chars, number} caracteres; una celda puede tener como máximo {max, number}: acórtalo',
  'rowReason.rowTooLong':
    'la fila tiene {chars, number} caracteres en total; una fila puede tener como máximo {max, number}: acorta sus valores más largos',
  'rowReason.beyondHeader':
    'tiene valores más allá de las {columns} columnas del encabezado ({values}): probablemente un valor contiene el delimitador sin comillas, o una columna no tiene encabezado',
  'rowReason.phoneTooLong': 'demasiado largo para ser un número de teléfono ({chars, number} caracteres)',
  'rowReason.duplicate': 'repetido de la fila {row} (mismo número {number})',
  // Watch settings: filters and formats (issue 17: src/watch/filter.ts, src/render/watch-settings.ts)
  'compactCall.line':
    '{status} · *{who}*{phone, select, none {} other { · {phone}}}{answeredBy, select, none {} other { · {answeredBy}}}{duration, select, none {} other { · {duration}}}',
  'compactCall.loading': 'Leyendo la llamada…',
  'compactCall.modalTitle': 'Llamada',
  'watchFormat.detailed': 'detallado',
  'watchFormat.compact': 'compacto',
  'watchFilter.everything': 'todas las llamadas',
  'watchFilter.outcomes': 'solo {list}',
  'watchFilter.answeredBy': 'contestadas por {list}',
  'watchFilter.scoreBelow': 'puntuación de políticas menor que {score}',
  'watchFilter.withData': 'con datos extraídos',
  'watchFilter.dataKey': 'con el dato “{key}”',
  'watchFilter.tags': 'con etiqueta {list}',
  'watchFilter.conversationsOnly': 'solo conversaciones',
  'watchSettings.summary': '{format} · {filter}',
  'watchSettings.button': 'Ajustes del seguimiento',
  'watchSettings.title': 'Ajustes del seguimiento',
  'watchSettings.save': 'Guardar',
  'watchSettings.intro':
    'Lo que {channel} muestra de {campaign}.{watching, select, no { Todavía no la sigue: al guardar empieza a seguirla.} other {}}',
  'watchSettings.format.label': 'Formato',
  'watchSettings.format.detailed': 'Detallado: la tarjeta completa de cada llamada',
  'watchSettings.format.compact': 'Compacto: una línea por llamada, con un botón Detalles',
  'watchSettings.outcomes.label': 'Solo llamadas con estos resultados',
  'watchSettings.answeredBy.label': 'Solo llamadas contestadas por',
  'watchSettings.noneTicked': 'Si no marcas ninguno: todos.',
  'watchSettings.score.label': 'Solo llamadas con puntuación de políticas menor que',
  'watchSettings.score.hint': 'De 0 a 100. Vacío: cualquier puntuación.',
  'watchSettings.data.label': 'Datos extraídos',
  'watchSettings.data.with': 'Solo llamadas con datos extraídos',
  'watchSettings.dataKey.label': 'Solo llamadas cuyos datos extraídos tienen esta clave',
  'watchSettings.tags.label': 'Solo llamadas con alguna de estas etiquetas',
  'watchSettings.tags.hint': 'Separadas por comas, p. ej. vip, renovación.',
  'watchSettings.conversations.label': 'Conversaciones',
  'watchSettings.conversations.only': 'Solo llamadas con conversación (una línea cada una, sin tarjeta)',
  'watchSettings.reminder.label': 'Recordar después de (minutos)',
  'watchSettings.reminder.hint':
    'Cuando un cliente espera este tiempo la respuesta de una persona en el hilo de una llamada, se publica ahí un recordatorio (de 1 a 1440).',
  'watchSettings.waitingNote':
    'Una conversación cuyo cliente espera la respuesta de una persona siempre se muestra aquí, sea cual sea el filtro. Las respuestas en los hilos nunca se envían también al canal.',
  'watchSettings.error.score': 'Escribe un número de 0 a 100, o déjalo vacío.',
  'watchSettings.error.reminder': 'Escribe un número entero de minutos de 1 a 1440.',
  'watchSettings.error.tags': 'Como máximo {max} etiquetas de hasta {chars} caracteres cada una, separadas por comas.',
  'watchSettings.stale':
    '⚠️ Este formulario ya no está vigente. Ciérralo y vuelve a abrir los ajustes del seguimiento.',
  'watchSettings.refused': '⚠️ {text}',
  'watchSettings.saved': '✅ {channel} muestra {campaign} así: {summary}.',
  'grammar.watchOption':
    '`{raw}` no es una opción de seguimiento. Después del id de la campaña (y del #canal) puedes escribir `compacto` o `detallado`, `solo:` con resultados ({outcomes}) separados por comas, `humano`, o `ajustes` para abrir el formulario.',
  'grammar.notAWatchOutcome':
    '`{raw}` no es un resultado de llamada. Usa {outcomes}, separados por comas: `solo:terminada,no-contesta`.',
  // Watches that call people in (issue 17: assignee, reminders, owner DMs, Home's waiting list: src/render/attention.ts)
  'attention.mention': '🔔 {assignee}: el cliente escribió en esta conversación.',
  'attention.reminder':
    '⏰ {assignee}: {named, select, yes {{name}} other {el cliente}} lleva {minutes, plural, one {# minuto} other {# minutos}} esperando una respuesta aquí. Responde en este hilo (o empieza con `note:` para dejar una nota interna).',
  'attention.notice':
    '{event, select, finished {🏁 La campaña {campaign} terminó.} paused {⏸️ El servicio de Outreach pausó la campaña {campaign} (no se pausó desde Slack).} other {💳 La campaña {campaign} no puede correr: se alcanzó el límite del plan de la organización.}} La sigues en {channels}. {event, select, finished {Sus mensajes se quedan ahí; `/campaign dejar {id} #canal` detiene el seguimiento.} paused {`/campaign reanudar {id}` la vuelve a iniciar cuando deba correr.} other {Pide a un administrador que amplíe el plan o pausa otra campaña, y luego usa `/campaign reanudar {id}`.}}',
  'attention.home.header': '⏳ Esperando respuesta',
  'attention.home.line': '• {who} en {channel}, desde {since}{reminded, select, yes { (con recordatorio)} other {}}',
  'attention.home.customer': 'Un cliente',
  'attention.home.more': '…y {count, plural, one {# conversación más} other {# conversaciones más}} esperando.',
  // Reportes de campañas (issue 16: src/render/report.ts, src/slack/reports/, src/slack/grammar.ts)
  'usage.report.syntax': 'reporte &lt;id&gt; [diario HH:MM | semanal &lt;día&gt; HH:MM | no] [#canal]',
  'usage.report.meaning':
    'publica ahora en este canal un reporte con gráfica (los últimos 7 días frente a los 7 anteriores), o cada día o semana a una hora de la zona horaria de la campaña',
  'usage.reports.syntax': 'reportes',
  'usage.reports.meaning': 'los reportes programados y cuándo se publica cada uno',
  'grammar.reportForm':
    'Escribe `{sub} &lt;id&gt;` (ahora), `{sub} &lt;id&gt; diario HH:MM [#canal]`, `{sub} &lt;id&gt; semanal &lt;día&gt; HH:MM [#canal]` o `{sub} &lt;id&gt; no [#canal]`.',
  'grammar.notATime': '“{raw}” no es una hora: escríbela como HH:MM en formato de 24 horas, por ejemplo 09:00 o 17:30.',
  'grammar.notADay': '“{raw}” no es un día de la semana: escribe lunes, martes, … domingo (o monday … sunday).',
  'report.header': '📊 Reporte: {name} (#{id})',
  'report.context': '{channel} · {state} · horas en {timeZone} · {date}',
  'report.funnelTitle': '{channel, select, whatsapp {Embudo de mensajes} other {Contactos}}',
  'report.step':
    '{step, select, total {Total} called {Llamados} answered {Contestaron} sent {Enviados} delivered {Entregados} read {Leídos} other {Convertidos}}',
  'report.others': 'Rechazados {rejected} · Fallidos {failed} · Pendientes {pending}',
  'report.conversion':
    'Tasa de conversión: {rate} de los {channel, select, whatsapp {contactos con mensaje} other {contactos llamados}}',
  'report.noConversion':
    'Tasa de conversión: — (aún no hay contactos {channel, select, whatsapp {con mensaje} other {llamados}})',
  'report.outcomesTitle': 'Llamadas por resultado ({total})',
  'report.outcome':
    '{outcome, select, human {Contestadas} voicemail {Buzón de voz} busy {Ocupado} noAnswer {Sin respuesta} failed {Fallidas} other {En curso}}',
  'report.busiestHour': 'Hora con más llamadas: {hour} ({count, plural, one {# llamada} other {# llamadas}})',
  'report.averageCall': 'Llamada promedio: {duration}',
  'report.hoursTitle': 'Llamadas por hora del día ({timeZone})',
  'report.hourAxis': 'hora',
  'report.comparisonTitle':
    '{days, plural, one {Últimas 24 horas} other {Últimos # días}} frente a {days, plural, one {las 24 horas} other {los # días}} anteriores',
  'report.compare':
    '{what, select, calls {Llamadas} answered {Contestadas por una persona} converted {Convertidos} other {Tasa de conversión}}: {now} ({dir, select, up {▲ +{delta}} down {▼ −{delta}} other {sin cambio}}; antes: {before})',
  'report.noComparison':
    'Los mensajes de WhatsApp no tienen fecha, así que no hay comparación con el periodo anterior.',
  'report.gathered':
    'Reunido en {seconds} s con {requests, plural, one {# solicitud} other {# solicitudes}} al servicio ({contacts, plural, one {# contacto} other {# contactos}}, {calls, plural, one {# llamada} other {# llamadas}}).',
  'report.lastOne':
    'Este fue el último reporte programado: la campaña está {state}. Su reporte programado en este canal se detuvo.',
  'report.chartSubtitle': '{date} · horas en {timeZone}',
  'report.fileTitle': 'Reporte de la campaña #{id}',
  'report.gathering':
    '⏳ {state, select, joined {El reporte de la campaña #{id} ya se está reuniendo (alguien lo pidió hace un momento): recibes el mismo, sin lecturas propias.} queued {El reporte de la campaña #{id} espera su turno: {ahead, plural, one {# reporte va} other {# reportes van}} antes (reúno como mucho {max} a la vez, para que el servicio siga rápido para todos).} other {Reuniendo el reporte de la campaña #{id}: se leen todos los contactos y llamadas detrás de otras tareas, así que una campaña grande tarda un minuto o más.}} {where, select, dm {Te llegará solo a ti, en tus mensajes directos conmigo{why, select, readOnly {: solo quienes pueden cambiar campañas publican reportes en canales} elsewhere {, porque no estoy en esta conversación} other {}}.} other {Se publicará en esta conversación.}}',
  'report.every':
    '{frequency, select, daily {cada día} other {cada {day, select, 0 {domingo} 1 {lunes} 2 {martes} 3 {miércoles} 4 {jueves} 5 {viernes} other {sábado}}}} a las {time} ({timeZone})',
  'report.scheduled': '🗓 {who} programó el reporte de la campaña #{id} en {channel}: {every}. Próximo: {next}.',
  'report.unscheduled': '{who} desactivó el reporte programado de la campaña #{id} en {channel}.',
  'report.noSchedule': 'La campaña #{id} no tiene un reporte programado en {channel}: no hay nada que desactivar.',
  'report.button': '📊 Reporte',
  'reports.title': 'Reportes programados',
  'reports.none': 'No hay reportes programados. Programa uno con `/campaign reporte &lt;id&gt; diario 09:00`.',
  'reports.line': '*#{id}* en {channel}: {every}. Próximo: {next}.',
  // Quién puede publicar reportes y dónde (issue 23: src/slack/reports/channels.ts, src/reports/gatherings.ts)
  'report.overBudget':
    '⏳ Dejé de reunir el reporte de la campaña #{id} después de {requests, plural, one {# consulta} other {# consultas}} al servicio. Un reporte cuesta uno de tus comandos por cada {every} consultas que lee, y por ahora agotaste tu parte (igual que cualquier otra persona que pidió este reporte). No se publicó nada. Vuelve a intentarlo en {wait, select, minutes {{minutes, plural, one {# minuto} other {# minutos}}} other {{seconds, plural, one {# segundo} other {# segundos}}}}.',
  'report.confirm.text':
    '🔐 {sharing, select, unknown {No sé si {channel} está compartido con personas de otra organización (Slack no lo dice).} other {{channel} es un canal de Slack Connect: tiene miembros de otra organización.}} {what, select, schedule {Si programas ahí el reporte de {campaign}, lo leerán cada vez} other {Si publico ahí el reporte de {campaign}, lo leerán}}: sus cifras de contactos, llamadas y conversión. Todavía no se publicó nada.',
  'report.confirm.button':
    '{what, select, schedule {Programarlo ahí de todos modos} other {Publicarlo ahí de todos modos}}',
  'report.confirm.alternative':
    '{what, select, schedule {O prográmalo en un canal solo de tu organización: `/campaign reporte {id} diario 09:00 #canal`.} other {O pídelo en un canal solo de tu organización, o en tus mensajes directos conmigo: `/campaign reporte {id}`.}}',
  'report.personNotInChannel':
    'No estás en {channel}, así que no programo reportes ahí por ti. Prográmalos desde un canal en el que estés, o únete antes a {channel}.',
  'report.typedChannel':
    'No puedo usar `{raw}`: no es un canal en el que estemos tú y yo. Escribe `#` y elige el canal de la lista de Slack, para que Slack lo enlace.',
  'report.skipped':
    '📊 No publiqué el reporte programado de la campaña #{id} en {channel} ({every}). {reason} Lo intentaré de nuevo en su próxima hora. Para detenerlo: `/campaign reporte {id} no` en {channel}.',
  'report.skippedShared':
    '{channel} está compartido con personas de otra organización (o Slack no dice si lo está), y nadie confirmó que sus reportes puedan ir ahí.',
};
