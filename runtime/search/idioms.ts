/**
 * Everyday phrasings of a requirement and the specification concepts they stand for, in English and
 * Spanish. People describe a need without the spec's vocabulary ("stop someone booking two slots at the
 * same time" for a rule on overlaps, "get my money back" for refunds): the words differ and are not
 * synonyms, the relation is between the phrasing and the concept. vocabulary.ts holds translations and
 * near synonyms of single words; this table holds those relations, written from what requirement specs
 * of any domain (bookings, shops, accounts, billing, staff, support) call things, never from a corpus.
 *
 * An entry: `en` and `es`, the phrasings in each language (words in order; `…` stands for up to three
 * words of any kind, so "let … know" meets "let the customer know"); `means`, the concept words, both
 * languages on one line. Phrasings are compared word by word after folding and stemming, stop words
 * included ("who can", "same time" are all stop words but one), so inflections match ("booked twice",
 * "books twice"). lexicon.ts turns a match into one more concept of the query, at a weight below the
 * translations'.
 */
export interface Idiom {
  en: readonly string[];
  es: readonly string[];
  means: string;
}

export const REQUIREMENT_IDIOMS: readonly Idiom[] = [
  // Time and conflicts
  {
    en: ['same time', 'same hour', 'same slot', 'at once', 'simultaneous', 'simultaneously', 'double booked', 'double booking', 'double book'],
    es: ['a la vez', 'mismo tiempo', 'misma hora', 'misma franja', 'simultaneo', 'simultaneamente', 'doble reserva'],
    means: 'overlap overlapping conflict concurrent solapamiento solapar conflicto concurrente',
  },
  {
    en: ['twice', 'two times', 'more than once', 'same one again', 'already exists', 'already registered'],
    es: ['dos veces', 'mas de una vez', 'otra vez lo mismo', 'ya existe', 'ya registrado', 'repetida'],
    means: 'duplicate duplicated unique uniqueness duplicado unico unicidad',
  },
  {
    en: ['too late', 'after the date', 'past the date', 'out of time', 'no longer valid', 'missed the date', 'ran out of time'],
    es: ['demasiado tarde', 'fuera de plazo', 'despues de la fecha', 'pasada la fecha', 'fuera de tiempo', 'ya no vale', 'ya no es valido'],
    means: 'deadline expired overdue expiry plazo vencido caducado caducidad',
  },
  {
    en: ['how long', 'how many days', 'how many hours', 'within how', 'how soon'],
    es: ['cuanto tiempo', 'cuantos dias', 'cuantas horas', 'en cuanto tiempo', 'cuanto tarda'],
    means: 'period duration limit deadline periodo duracion limite plazo',
  },
  {
    en: ['in advance', 'ahead of time', 'beforehand', 'before it expires', 'before it is due'],
    es: ['con antelacion', 'por adelantado', 'antes de que venza', 'antes de que caduque', 'con tiempo'],
    means: 'notice reminder advance antelacion recordatorio aviso',
  },
  {
    en: ['every day', 'every week', 'every month', 'every year', 'each month', 'each week', 'on a regular basis'],
    es: ['cada dia', 'cada semana', 'cada mes', 'cada ano', 'todos los meses', 'todas las semanas', 'de forma periodica'],
    means: 'recurring periodic recurrence recurrente periodico periodicidad',
  },
  {
    en: ['reschedule', 'move … to another day', 'change the date', 'change the time', 'another day'],
    es: ['reprogramar', 'cambiar la fecha', 'cambiar la hora', 'mover … otro dia', 'otro dia'],
    means: 'reschedule rescheduling reprogramar reprogramacion',
  },
  {
    en: ["doesn't show up", "didn't show up", 'does not show up', 'did not show up', 'no show', 'does not come', 'did not come', 'never came', 'missed … appointment'],
    es: ['no se presenta', 'no se presento', 'no acude', 'no acudio', 'no vino', 'no viene', 'falta a'],
    means: 'absence attendance missed ausencia asistencia inasistencia',
  },
  {
    en: ['time off', 'day off', 'days off', 'sick', 'away from work'],
    es: ['dias libres', 'dia libre', 'baja medica', 'enfermo', 'enferma'],
    means: 'leave absence vacation ausencia vacaciones permiso',
  },
  // What is allowed, by whom
  {
    en: ['who can', 'who may', 'who gets to', 'who is allowed', 'allowed to', 'permitted to', 'has access', 'have access', 'who sees', 'visible to'],
    es: ['quien puede', 'quienes pueden', 'quien ve', 'tiene acceso', 'tienen acceso', 'tener permiso', 'puede ver', 'pueden ver'],
    means: 'permission role access authorized permiso rol acceso autorizado',
  },
  {
    en: ['who is in charge', 'in charge of', 'who handles', 'who takes care', 'takes care of', 'responsible for'],
    es: ['quien se encarga', 'se encarga de', 'a cargo de', 'quien gestiona', 'encargado de'],
    means: 'responsible owner assignee responsable encargado asignado',
  },
  {
    en: ['sign off', 'green light', 'give the ok', 'needs approval', 'must be approved', 'ask permission', 'ask for permission'],
    es: ['visto bueno', 'dar el ok', 'necesita aprobacion', 'pedir permiso', 'tiene que aprobar'],
    means: 'approval approve authorization aprobacion aprobar autorizacion',
  },
  {
    en: ['on behalf of', 'for someone else', 'in the name of'],
    es: ['en nombre de', 'por otra persona', 'en representacion de'],
    means: 'delegate representative proxy guardian delegar representante tutor',
  },
  {
    en: ['under 18', 'underage', 'too young', 'age limit'],
    es: ['menor de edad', 'menores de edad', 'demasiado joven', 'limite de edad'],
    means: 'minor age guardian consent menor edad tutor consentimiento',
  },
  // Accounts and access
  {
    en: ['forgot … password', 'forget … password', 'lost … password', "can't log in", 'cannot log in', "can't sign in", 'cannot sign in', 'locked out'],
    es: ['olvide … contrasena', 'olvido … contrasena', 'perdi … contrasena', 'no puedo entrar', 'no puedo acceder', 'no puede entrar'],
    means: 'reset recovery password restablecer recuperacion contrasena',
  },
  {
    en: ['too many tries', 'too many attempts', 'wrong password', 'keeps trying', 'tries again and again'],
    es: ['demasiados intentos', 'contrasena incorrecta', 'sigue intentando', 'muchos intentos'],
    means: 'attempt lockout block intento bloqueo bloquear',
  },
  {
    en: ['sign up', 'create an account', 'open an account', 'join'],
    es: ['darse de alta', 'dar de alta', 'crear una cuenta', 'abrir una cuenta', 'apuntarse'],
    means: 'register registration signup registro alta',
  },
  {
    en: ['log in', 'sign in', 'get in'],
    es: ['iniciar sesion', 'entrar en', 'entrar al'],
    means: 'login authentication session autenticacion sesion',
  },
  {
    en: ['left open', 'idle', 'inactive', 'walks away'],
    es: ['inactividad', 'inactivo', 'sin actividad', 'se queda abierta'],
    means: 'timeout session expire sesion caducar',
  },
  {
    en: ['prove who', 'who they are', 'who he is', 'who she is', 'is really'],
    es: ['demostrar quien', 'quien es', 'es realmente'],
    means: 'identity verification authentication identidad verificacion autenticacion',
  },
  {
    en: ['personal details', 'personal information', 'personal info', 'my details', 'my data', 'erase my', 'forget me'],
    es: ['datos personales', 'informacion personal', 'mis datos', 'borrar mis', 'derecho al olvido'],
    means: 'privacy personaldata erasure consent privacidad supresion consentimiento',
  },
  {
    en: ['secret', 'confidential', 'nobody else', 'kept private'],
    es: ['secreto', 'confidencial', 'nadie mas'],
    means: 'privacy confidentiality encryption privacidad confidencialidad cifrado',
  },
  // Money
  {
    en: ['money back', 'pay back', 'give back … money', 'reimburse', 'reimbursed'],
    es: ['devolver … dinero', 'devuelvan … dinero', 'recuperar … dinero', 'dinero de vuelta', 'reintegro'],
    means: 'refund reembolso devolucion',
  },
  {
    en: ['how much', 'what does it cost', 'what it costs', 'how expensive'],
    es: ['cuanto cuesta', 'cuanto vale', 'cuanto cobran', 'cuanto se paga', 'cuanto hay que pagar'],
    means: 'price fee cost amount precio tarifa coste importe',
  },
  {
    en: ['extra charge', 'charged extra', 'pay more', 'pay extra', 'additional charge'],
    es: ['cobrar de mas', 'pagar mas', 'cargo extra', 'cobro adicional', 'pagar extra'],
    means: 'surcharge fee penalty recargo tarifa penalizacion',
  },
  {
    en: ['cheaper', 'pay less', 'money off', 'percent off', 'price cut', 'lower price'],
    es: ['mas barato', 'pagar menos', 'rebaja', 'precio mas bajo'],
    means: 'discount promotion coupon descuento promocion cupon',
  },
  {
    en: ["hasn't paid", "didn't pay", 'did not pay', 'has not paid', 'not paid', 'unpaid', 'still owes', 'owes money'],
    es: ['no ha pagado', 'no pago', 'sin pagar', 'impago', 'debe dinero', 'moroso'],
    means: 'debt unpaid outstanding overdue deuda impago pendiente moroso',
  },
  {
    en: ['pay later', 'pay in parts', 'split … payment', 'monthly payments'],
    es: ['pagar a plazos', 'a plazos', 'en cuotas', 'pago fraccionado'],
    means: 'installment installments financing cuota cuotas financiacion',
  },
  // Communication
  {
    en: ['let … know', 'tell', 'told', 'inform', 'informed', 'heads up', 'get an email', 'receive an email', 'send … email', 'text message'],
    es: ['avisar', 'avisa', 'informar', 'hacer saber', 'enterarse', 'recibir un correo', 'mandar un correo', 'mensaje de texto'],
    means: 'notify notification alert notificar notificacion alerta aviso',
  },
  {
    en: ['stop getting', 'stop receiving', 'opt out', 'unsubscribe', 'no more emails'],
    es: ['dejar de recibir', 'no recibir mas', 'darse de baja de', 'desuscribirse'],
    means: 'unsubscribe preferences consent optout baja preferencias consentimiento',
  },
  // Changes of mind, mistakes, faults
  {
    en: ['call off', 'back out', 'change … mind', 'no longer want', "don't want … anymore", 'drop out', 'pull out'],
    es: ['echarse atras', 'ya no quiero', 'ya no quiere', 'cambiar de opinion', 'arrepentirse', 'dar de baja'],
    means: 'cancel cancellation withdraw withdrawal cancelar cancelacion anular desistimiento',
  },
  {
    en: ['undo', 'take back', 'revert', 'go back to'],
    es: ['deshacer', 'volver atras', 'revertir', 'dar marcha atras'],
    means: 'revert rollback reversal restore revertir reversion restaurar',
  },
  {
    en: ['wrong', 'by mistake', 'incorrect', 'typo', 'mixed up'],
    es: ['equivocado', 'equivocada', 'por error', 'incorrecto', 'incorrecta', 'confundido'],
    means: 'error correction invalid correct corregir correccion invalido',
  },
  {
    en: ['broken', 'damaged', 'defective', 'arrived broken', 'faulty'],
    es: ['roto', 'rota', 'danado', 'danada', 'defectuoso', 'estropeado'],
    means: 'defect damage warranty claim defecto dano garantia reclamacion',
  },
  {
    en: ['not working', "doesn't work", 'does not work', 'goes down', 'is down', 'crashes'],
    es: ['no funciona', 'se cae', 'no responde', 'se cuelga'],
    means: 'outage failure downtime availability caida fallo disponibilidad',
  },
  // Things, stock and delivery
  {
    en: ['run out', 'ran out', 'none left', 'no more left', 'sold out', 'not available', 'out of stock'],
    es: ['se acaba', 'se agota', 'no quedan', 'no queda', 'sin stock', 'no disponible', 'agotado'],
    means: 'stock availability inventory shortage existencias disponibilidad inventario agotado',
  },
  {
    en: ['no room', 'no space', 'no places left', 'no seats left', 'is full', 'fully booked', 'waiting list'],
    es: ['no hay sitio', 'sin plazas', 'no hay plazas', 'esta lleno', 'esta completo', 'lista de espera'],
    means: 'capacity waitlist full quota capacidad aforo cupo',
  },
  {
    en: ['when will … arrive', 'arrive', 'arrives', 'get my order', 'receive my order'],
    es: ['cuando llega', 'llegar', 'llega', 'recibir mi pedido'],
    means: 'delivery shipping entrega envio',
  },
  {
    en: ['where is my', "where's my", 'find out where'],
    es: ['donde esta mi', 'donde esta el', 'saber donde'],
    means: 'tracking status seguimiento estado',
  },
  {
    en: ['give back', 'bring back', 'send back', 'hand back'],
    es: ['traer de vuelta', 'mandar de vuelta', 'llevar de vuelta'],
    means: 'return devolucion devolver',
  },
  {
    en: ['hand over', 'pass on to', 'give … to someone else', 'pass … to another'],
    es: ['traspasar', 'ceder', 'pasar a otro', 'pasar a otra'],
    means: 'transfer reassign transferencia reasignar',
  },
  // Limits
  {
    en: ['too many', 'too much', 'at most', 'no more than', 'up to a', 'more than allowed'],
    es: ['demasiados', 'demasiadas', 'demasiado', 'como maximo', 'no mas de', 'mas de lo permitido'],
    means: 'limit maximum exceed quota limite maximo exceder cupo',
  },
  {
    en: ['at least', 'not enough', 'too few', 'too little'],
    es: ['al menos', 'por lo menos', 'como minimo', 'no alcanza', 'insuficiente'],
    means: 'minimum threshold insufficient minimo umbral insuficiente',
  },
  {
    en: ['too often', 'too fast', 'over and over', 'spam'],
    es: ['con demasiada frecuencia', 'una y otra vez', 'muy seguido'],
    means: 'rate throttle frequency limit tasa frecuencia limite',
  },
  // Records, automation, priority
  {
    en: ['who changed', 'who did', 'who modified', 'who deleted', 'keep track', 'trace back'],
    es: ['quien cambio', 'quien hizo', 'quien modifico', 'quien borro', 'dejar constancia', 'llevar registro'],
    means: 'audit log history trail traceability auditoria historial trazabilidad',
  },
  {
    en: ['write down', 'take note', 'note down', 'keep a record'],
    es: ['anotar', 'apuntar', 'dejar por escrito', 'tomar nota'],
    means: 'record register note registro expediente nota',
  },
  {
    en: ['by itself', 'on its own', 'without anyone', 'nobody has to'],
    es: ['por si solo', 'por si sola', 'sin intervencion', 'sin que nadie'],
    means: 'automatic automatically scheduled automatico automaticamente programado',
  },
  {
    en: ['right away', 'immediately', 'asap', 'as soon as possible', 'first in line'],
    es: ['de inmediato', 'enseguida', 'cuanto antes', 'lo antes posible', 'inmediatamente'],
    means: 'priority urgent emergency prioridad urgente urgencia',
  },
  {
    en: ['first time', 'new customer', 'newcomer', 'just joined'],
    es: ['primera vez', 'nuevo cliente', 'recien llegado'],
    means: 'onboarding welcome registration bienvenida registro alta',
  },
  {
    en: ['make sure', 'double check', 'double-check', 'check that', 'confirm that'],
    es: ['asegurarse', 'asegurar que', 'comprobar que', 'verificar que'],
    means: 'validation verify check validacion verificar comprobar',
  },
  {
    en: ['all at once', 'in bulk', 'many at a time', 'in one go'],
    es: ['de golpe', 'en bloque', 'masivo', 'masiva', 'de una vez'],
    means: 'batch bulk lote masivo',
  },
  {
    en: ['leave the company', 'quit', 'resign', 'stops working here'],
    es: ['dejar la empresa', 'renunciar', 'dimitir', 'se va de la empresa'],
    means: 'termination resignation offboarding baja dimision',
  },
];
