/**
 * Everyday phrasings of a requirement and the specification concepts they stand for, in English and
 * Spanish. People describe a need without the spec's vocabulary ("stop someone booking two slots at the
 * same time" for a rule on overlaps, "get my money back" for refunds): the words differ and are not
 * synonyms, the relation is between the phrasing and the concept. vocabulary.ts holds translations and
 * near synonyms of single words; this table holds those relations, written from what requirement specs
 * of any domain call things, never from a corpus: first the relations every product has (time, permissions,
 * accounts, money, messages, mistakes, limits), then those of the common business domains (bookings,
 * shops and delivery, billing, accounts, staff, clinics, courses, lending, warehouses, support desks,
 * banking, insurance, rentals, events, travel, factories, software delivery).
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
  // Common business domains, each a need as people put it and what a spec of that domain calls it.
  // Bookings, opening hours and attendance
  {
    en: ['opening hours', 'open hours', 'business hours', 'office hours', 'closing time', 'when … open'],
    es: ['horario de apertura', 'horas de atencion', 'horario de atencion', 'a que hora abre', 'a que hora cierra'],
    means: 'schedule opening hours calendar horario apertura calendario',
  },
  {
    en: ['free slot', 'open slot', 'next available', 'any gaps', 'earliest available'],
    es: ['hueco libre', 'huecos libres', 'primer hueco', 'proximo disponible', 'cuando hay hueco'],
    means: 'availability slot available disponibilidad franja hueco disponible',
  },
  {
    en: ['book a table', 'book a room', 'book a seat', 'make an appointment', 'get an appointment', 'save a spot'],
    es: ['pedir cita', 'pedir hora', 'coger cita', 'sacar cita', 'reservar mesa', 'reservar sitio'],
    means: 'booking reservation appointment reserva cita',
  },
  {
    en: ['put on hold', 'set aside', 'keep aside', 'hold … for me', 'reserve … for me'],
    es: ['apartar', 'dejar reservado', 'guardar … para mi', 'me lo guardan'],
    means: 'hold reservation reserve retencion reserva',
  },
  {
    en: ['last minute', 'short notice', 'last moment'],
    es: ['ultimo momento', 'ultima hora', 'poca antelacion'],
    means: 'notice cancellation penalty deadline antelacion cancelacion penalizacion plazo',
  },
  {
    en: ['running late', 'came late', 'turned up late', 'late arrival', 'shows up late'],
    es: ['llegar tarde', 'llega tarde', 'llego tarde', 'con retraso'],
    means: 'lateness delay tolerance grace retraso demora tolerancia gracia',
  },
  {
    en: ['waiting time', 'long wait', 'kept waiting', 'how long … wait', 'wait too long'],
    es: ['tiempo de espera', 'esperar mucho', 'demasiada espera', 'cuanto … esperar'],
    means: 'waiting queue response espera cola respuesta',
  },
  {
    en: ['on holiday', 'on vacation', 'public holiday', 'bank holiday', 'closed days'],
    es: ['dia festivo', 'dias festivos', 'cerrado por vacaciones', 'dias de cierre'],
    means: 'holiday calendar closure festivo calendario cierre',
  },
  {
    en: ['at night', 'overnight', 'after hours', 'outside working hours', 'out of hours'],
    es: ['de noche', 'por la noche', 'fuera de horario', 'fuera del horario'],
    means: 'schedule hours shift availability horario turno disponibilidad',
  },
  {
    en: ['about to expire', 'expiring soon', 'ends soon', 'almost due'],
    es: ['a punto de caducar', 'a punto de vencer', 'caduca pronto', 'vence pronto', 'esta por vencer'],
    means: 'expiry expiration reminder renewal vencimiento caducidad recordatorio renovacion',
  },
  {
    en: ['keep it longer', 'extra days', 'extend the loan'],
    es: ['prorrogar', 'alargar', 'ampliar el plazo', 'extender', 'ampliar el prestamo'],
    means: 'extension renewal prorroga renovacion ampliacion',
  },
  {
    en: ['how far in advance', 'how far ahead', 'how early'],
    es: ['con cuanta antelacion', 'cuanto tiempo antes', 'con cuantos dias'],
    means: 'notice window advance antelacion ventana anticipacion',
  },
  {
    en: ['start date', 'end date', 'valid until', 'valid from', 'until when', 'from when'],
    es: ['fecha de inicio', 'fecha de fin', 'valido hasta', 'hasta cuando', 'desde cuando'],
    means: 'validity period start end vigencia periodo inicio fin',
  },
  {
    en: ['time zone', 'timezone', 'local time', 'different country'],
    es: ['zona horaria', 'hora local', 'otro pais'],
    means: 'timezone zone utc zona horaria',
  },
  {
    en: ['how many people', 'how many guests', 'how many fit'],
    es: ['cuantas personas', 'cuantos caben', 'para cuantas'],
    means: 'capacity occupancy maximum capacidad aforo maximo',
  },
  {
    en: ['clock in', 'clock out', 'punch in', 'sign the register'],
    es: ['fichar', 'fichaje', 'marcar asistencia', 'pasar lista'],
    means: 'attendance checkin timesheet asistencia fichaje',
  },
  {
    en: ['remind me', 'dont forget', 'do not forget'],
    es: ['recuerdame', 'que no se me olvide', 'no olvidar'],
    means: 'reminder notification recordatorio notificacion',
  },
  // Shops, orders, delivery and returns
  {
    en: ['add to basket', 'add to cart', 'put in the basket', 'shopping basket', 'shopping bag'],
    es: ['anadir al carrito', 'meter en la cesta', 'cesta de la compra', 'meter en el carrito'],
    means: 'cart basket carrito cesta',
  },
  {
    en: ['complete the purchase', 'finish … purchase', 'place … order', 'go to checkout', 'pay for my order'],
    es: ['finalizar la compra', 'terminar la compra', 'hacer el pedido', 'realizar el pedido', 'pasar por caja'],
    means: 'checkout order purchase payment pedido compra pago',
  },
  {
    en: ['buy again', 'order again', 'same order again', 'repeat order'],
    es: ['volver a comprar', 'repetir el pedido', 'pedir otra vez'],
    means: 'reorder history purchase historial compra',
  },
  {
    en: ['wrong size', 'not what i ordered', 'wrong item'],
    es: ['no me queda bien', 'talla equivocada', 'no es lo que pedi', 'me ha llegado otro'],
    means: 'exchange return size cambio devolucion talla',
  },
  {
    en: ['has not arrived', "hasn't arrived", 'never arrived', 'did not arrive', "didn't arrive", 'still waiting for', 'lost in the post', 'lost parcel'],
    es: ['no ha llegado', 'nunca llego', 'sigo esperando', 'se ha perdido', 'paquete perdido'],
    means: 'delivery lost claim incident tracking entrega perdida reclamacion incidencia seguimiento',
  },
  {
    en: ['late delivery', 'delivered late', 'delivery delay', 'shipping delay', 'took too long to arrive'],
    es: ['entrega tardia', 'retraso en la entrega', 'envio retrasado', 'llega con retraso'],
    means: 'delay delivery sla compensation retraso entrega compensacion',
  },
  {
    en: ['ship to', 'deliver to', 'different address', 'another address', 'wrong address'],
    es: ['otra direccion', 'direccion equivocada', 'cambiar la direccion', 'enviar a otra'],
    means: 'address shipping delivery direccion envio entrega',
  },
  {
    en: ['free shipping', 'shipping cost', 'delivery charge', 'how much is delivery', 'postage'],
    es: ['envio gratis', 'gastos de envio', 'cuanto cuesta el envio', 'portes'],
    means: 'shipping fee cost rate envio tarifa coste',
  },
  {
    en: ['pick up in store', 'collect in store', 'click and collect', 'pick it up', 'collection point'],
    es: ['recoger en tienda', 'recogida en tienda', 'punto de recogida', 'pasar a recoger'],
    means: 'pickup collection store recogida tienda',
  },
  {
    en: ['back in stock', 'in stock again', 'when … available again', 'restock'],
    es: ['vuelve a estar disponible', 'cuando habra', 'reponer'],
    means: 'restock replenishment stock inventory reposicion existencias inventario',
  },
  {
    en: ['price went up', 'price increase', 'more expensive', 'raise the price', 'price changed'],
    es: ['subir el precio', 'sube el precio', 'mas caro', 'subida de precio'],
    means: 'price increase update precio aumento actualizacion',
  },
  {
    en: ['promo code', 'discount code', 'voucher code', 'gift card', 'special offer', 'on sale'],
    es: ['codigo promocional', 'codigo de descuento', 'oferta especial', 'en oferta', 'tarjeta regalo', 'de rebajas'],
    means: 'coupon voucher promotion discount code cupon promocion descuento codigo',
  },
  {
    en: ['leave a review', 'give stars', 'what others think', 'star rating'],
    es: ['dejar una opinion', 'dar estrellas', 'puntuar', 'que opinan otros'],
    means: 'review rating feedback resena valoracion opinion',
  },
  {
    en: ['pay on delivery', 'cash on delivery', 'pay when it arrives', 'pay in cash'],
    es: ['contra reembolso', 'pagar al recibir', 'pagar en efectivo'],
    means: 'payment cash method pago efectivo metodo',
  },
  {
    en: ['ways to pay', 'pay by card', 'pay with card', 'payment options'],
    es: ['formas de pago', 'pagar con tarjeta', 'metodo de pago', 'medios de pago'],
    means: 'payment method card pago metodo tarjeta',
  },
  // Billing, subscriptions and payments
  {
    en: ['charged twice', 'double charged', 'paid twice', 'billed twice', 'charged two times'],
    es: ['cobrado dos veces', 'me cobraron dos veces', 'pagado dos veces', 'cobro duplicado'],
    means: 'duplicate charge refund dispute duplicado cargo reembolso disputa',
  },
  {
    en: ['card declined', 'card was declined', 'payment failed', 'payment did not go through', 'card rejected', 'payment bounced'],
    es: ['tarjeta rechazada', 'pago rechazado', 'el pago no pasa', 'pago fallido', 'no se ha cobrado'],
    means: 'payment failure declined retry pago fallo rechazo reintento',
  },
  {
    en: ['wrong amount', 'wrong price', 'charged too much', 'overcharged', 'billed wrongly'],
    es: ['importe incorrecto', 'precio incorrecto', 'me cobraron de mas', 'me han cobrado mal'],
    means: 'dispute correction amount invoice disputa correccion importe factura',
  },
  {
    en: ['proof of purchase', 'proof of payment', 'copy of the invoice', 'invoice for my'],
    es: ['justificante de pago', 'comprobante', 'ticket de compra', 'copia de la factura'],
    means: 'receipt invoice proof recibo factura justificante comprobante',
  },
  {
    en: ['monthly fee', 'pay every month', 'recurring payment', 'auto renew', 'renews automatically', 'charged every month'],
    es: ['cuota mensual', 'pago recurrente', 'se renueva solo', 'renovacion automatica', 'cobro mensual'],
    means: 'subscription recurring renewal billing suscripcion recurrente renovacion facturacion',
  },
  {
    en: ['stop paying', 'stop my subscription', 'end my membership', 'leave the plan'],
    es: ['dejar de pagar', 'darme de baja', 'anular la suscripcion', 'dejar la suscripcion'],
    means: 'cancellation subscription churn cancelacion suscripcion baja',
  },
  {
    en: ['free trial', 'try for free', 'try before buying', 'trial period'],
    es: ['prueba gratis', 'periodo de prueba', 'probar gratis'],
    means: 'trial free evaluation prueba gratuito',
  },
  {
    en: ['better plan', 'bigger plan', 'switch plans', 'change my plan'],
    es: ['cambiar de plan', 'mejorar el plan', 'plan superior', 'plan inferior'],
    means: 'plan upgrade downgrade tier suscripcion nivel',
  },
  {
    en: ['pay off', 'pay it off', 'settle the debt', 'clear the balance'],
    es: ['saldar', 'liquidar la deuda', 'pagar lo que debo', 'saldar la deuda'],
    means: 'settlement balance payment debt liquidacion saldo pago deuda',
  },
  {
    en: ['late fee', 'late payment', 'paid late', 'payment was late'],
    es: ['recargo por demora', 'pago tardio', 'pagar tarde', 'pagado tarde', 'pago atrasado'],
    means: 'penalty surcharge interest overdue recargo penalizacion intereses demora',
  },
  {
    en: ['split the bill', 'share the cost', 'pay together', 'each pays'],
    es: ['dividir la cuenta', 'pagar a medias', 'pagar entre varios'],
    means: 'split shared payment pago compartido dividir',
  },
  {
    en: ['exchange rate', 'other currency', 'foreign currency', 'in dollars', 'in euros'],
    es: ['tipo de cambio', 'otra moneda', 'moneda extranjera', 'en dolares', 'en euros'],
    means: 'currency exchange conversion moneda divisa conversion',
  },
  {
    en: ['send … invoice', 'bill the customer', 'send the bill', 'issue an invoice'],
    es: ['emitir la factura', 'mandar la factura', 'facturar al cliente', 'hacer la factura'],
    means: 'invoicing invoice billing issuance facturacion factura emision',
  },
  {
    en: ['due date', 'when do i have to pay', 'payment due'],
    es: ['fecha de pago', 'cuando tengo que pagar', 'vencimiento de la factura', 'fecha limite de pago'],
    means: 'due deadline payment term vencimiento plazo pago',
  },
  {
    en: ['who owes', 'chase payment', 'chase the customer', 'collect the debt', 'reminder to pay'],
    es: ['reclamar el pago', 'cobrar la deuda', 'recordar el pago', 'reclamar la deuda'],
    means: 'dunning collection reminder debt reclamacion cobro recordatorio deuda',
  },
  {
    en: ['pay a supplier', 'supplier invoice', 'bills to pay', 'pay the suppliers'],
    es: ['pagar a proveedores', 'factura de proveedor', 'facturas por pagar', 'pagar al proveedor'],
    means: 'payable supplier invoice payment proveedor factura pago',
  },
  {
    en: ['spending limit', 'spend limit', 'how much can i spend'],
    es: ['limite de gasto', 'cuanto puedo gastar'],
    means: 'budget limit approval presupuesto limite aprobacion',
  },
  {
    en: ['block my card', 'freeze my card', 'card stolen', 'lost my card'],
    es: ['bloquear la tarjeta', 'perdi la tarjeta', 'me robaron la tarjeta', 'congelar la tarjeta'],
    means: 'card block freeze tarjeta bloqueo',
  },
  {
    en: ['earn points', 'loyalty card', 'redeem points', 'collect points'],
    es: ['acumular puntos', 'tarjeta de fidelidad', 'canjear puntos', 'sumar puntos'],
    means: 'loyalty points rewards redemption fidelizacion puntos recompensas canje',
  },
  {
    en: ['refer a friend', 'invite friends', 'bring a friend'],
    es: ['invitar a un amigo', 'recomendar a un amigo', 'traer a un amigo'],
    means: 'referral reward invitation recomendacion recompensa invitacion',
  },
  // Accounts, access and privacy
  {
    en: ['change my email', 'update my details', 'edit my profile', 'change my name', 'change my address'],
    es: ['cambiar mi correo', 'actualizar mis datos', 'editar mi perfil', 'cambiar mi nombre', 'cambiar mi direccion'],
    means: 'profile update account perfil actualizar cuenta',
  },
  {
    en: ['delete my account', 'close my account', 'remove my account', 'cancel my account'],
    es: ['borrar mi cuenta', 'eliminar mi cuenta', 'cerrar mi cuenta', 'darme de baja de'],
    means: 'deletion account erasure closure eliminacion cuenta supresion baja',
  },
  {
    en: ['two step', 'second factor', 'code by sms', 'code on my phone', 'verification code', 'one time code', 'authenticator'],
    es: ['doble factor', 'codigo por sms', 'codigo al movil', 'codigo de verificacion', 'segundo factor'],
    means: 'mfa twofactor verification otp authentication verificacion autenticacion codigo',
  },
  {
    en: ['hacked', 'someone got into', 'suspicious login', 'unknown device', 'stolen account', 'someone else logged'],
    es: ['me han hackeado', 'han entrado en mi cuenta', 'acceso sospechoso', 'dispositivo desconocido', 'cuenta robada'],
    means: 'security breach suspicious fraud alert seguridad sospechoso fraude alerta',
  },
  {
    en: ['stay logged in', 'remember me', 'keep me signed in', 'not have to log in again'],
    es: ['mantener la sesion', 'no tener que entrar otra vez', 'seguir conectado'],
    means: 'session persistent token sesion persistente',
  },
  {
    en: ['log out', 'sign out', 'log off', 'end the session'],
    es: ['cerrar sesion', 'cerrar la sesion', 'salir de la cuenta'],
    means: 'logout session termination sesion cierre',
  },
  {
    en: ['admin rights', 'full access', 'superuser', 'can only see'],
    es: ['solo puede ver', 'acceso total', 'permisos de administrador'],
    means: 'role permission privilege readonly admin rol permiso privilegio',
  },
  {
    en: ['invite someone', 'invite a colleague', 'add a colleague', 'add a user', 'add someone to'],
    es: ['invitar a', 'anadir a un companero', 'dar acceso a', 'anadir un usuario'],
    means: 'invitation user member access invitacion usuario miembro acceso',
  },
  {
    en: ['revoke access', 'remove access', 'cut off access', 'take away access'],
    es: ['quitar el acceso', 'retirar el acceso', 'revocar el acceso', 'quitar permisos'],
    means: 'revoke revocation deactivate access revocar revocacion desactivar acceso',
  },
  {
    en: ['who can see my', 'hide my', 'make … private', 'only i can see'],
    es: ['quien puede ver mi', 'ocultar mi', 'hacer privado', 'solo yo puedo ver'],
    means: 'visibility privacy setting visibilidad privacidad configuracion',
  },
  {
    en: ['data leak', 'someone saw my data', 'exposed data'],
    es: ['fuga de datos', 'filtracion', 'se filtraron', 'datos expuestos'],
    means: 'breach incident notification security brecha incidente seguridad',
  },
  {
    en: ['how long … keep', 'delete old', 'old data', 'kept forever', 'how long … stored'],
    es: ['cuanto tiempo se guardan', 'borrar datos antiguos', 'datos antiguos', 'se guardan para siempre'],
    means: 'retention deletion archive period conservacion eliminacion archivado plazo',
  },
  {
    en: ['download my data', 'copy of my data', 'export my data', 'take my data'],
    es: ['descargar mis datos', 'copia de mis datos', 'exportar mis datos', 'llevarme mis datos'],
    means: 'portability export access portabilidad exportacion acceso',
  },
  {
    en: ['fake account', 'not a real person'],
    es: ['cuenta falsa', 'no es una persona', 'perfil falso'],
    means: 'fraud verification captcha fraude verificacion',
  },
  {
    en: ['strong password', 'password rules', 'how long … password', 'weak password'],
    es: ['contrasena segura', 'requisitos de la contrasena', 'contrasena debil'],
    means: 'password policy complexity strength contrasena politica complejidad',
  },
  // Staff: hiring, onboarding, leave, pay, expenses, leaving
  {
    en: ['new hire', 'first day', 'start working', 'joins the team', 'new starter', 'new employee'],
    es: ['primer dia', 'nuevo empleado', 'nueva incorporacion', 'empieza a trabajar', 'se incorpora'],
    means: 'onboarding hiring induction incorporacion contratacion acogida',
  },
  {
    en: ['let go', 'laid off', 'last working day', 'final paycheck'],
    es: ['despedido', 'despedir', 'ultimo dia de trabajo', 'finiquito', 'lo echan'],
    means: 'dismissal termination offboarding severance despido baja finiquito indemnizacion',
  },
  {
    en: ['find people', 'open position', 'job ad', 'job opening', 'looking for candidates', 'post a job'],
    es: ['buscar candidatos', 'oferta de empleo', 'puesto vacante', 'publicar una oferta', 'contratar a alguien'],
    means: 'recruitment vacancy candidate hiring reclutamiento vacante candidato contratacion',
  },
  {
    en: ['job interview', 'meet the candidate', 'screening call'],
    es: ['entrevista de trabajo', 'entrevistar al candidato', 'entrevistar a'],
    means: 'interview candidate selection entrevista candidato seleccion',
  },
  {
    en: ['pay slip', 'my pay', 'my wages', 'paid less', 'pay day', 'payday'],
    es: ['mi nomina', 'mi sueldo', 'dia de cobro', 'me pagaron menos', 'cobrar el sueldo'],
    means: 'payroll salary payslip wage nomina salario sueldo',
  },
  {
    en: ['extra hours', 'worked late', 'overtime', 'extra shift'],
    es: ['horas extra', 'horas extras', 'trabajar de mas', 'turno extra'],
    means: 'overtime compensation extra hours compensacion horas',
  },
  {
    en: ['claim expenses', 'expense claim', 'pay me back for', 'travel costs', 'taxi receipt', 'business trip'],
    es: ['gastos de viaje', 'pasar gastos', 'nota de gastos', 'dietas', 'me devuelvan lo que gaste'],
    means: 'expense reimbursement receipt approval gasto reembolso recibo aprobacion',
  },
  {
    en: ['holiday request', 'ask for days off', 'book time off', 'take vacation', 'annual leave', 'days … left'],
    es: ['pedir vacaciones', 'solicitar vacaciones', 'dias de vacaciones', 'cuantos dias me quedan', 'coger vacaciones'],
    means: 'leave request vacation balance approval permiso solicitud vacaciones saldo',
  },
  {
    en: ['having a baby', 'new parent', 'maternity', 'paternity', 'parental leave'],
    es: ['baja por maternidad', 'baja por paternidad', 'permiso parental', 'tener un bebe'],
    means: 'maternity paternity parental leave maternidad paternidad permiso',
  },
  {
    en: ['sick note', 'doctor note', 'medical certificate', 'off sick', 'off work'],
    es: ['parte medico', 'justificante medico', 'certificado medico', 'estar de baja'],
    means: 'certificate medical absence justification certificado justificante ausencia',
  },
  {
    en: ['who works when', 'swap shifts', 'cover a shift', 'shift plan', 'work schedule'],
    es: ['cambiar el turno', 'cubrir un turno', 'quien trabaja', 'cambio de turno'],
    means: 'shift roster schedule swap turno cuadrante horario intercambio',
  },
  {
    en: ['how am i doing', 'yearly review', 'annual review', 'performance review', 'evaluate employees'],
    es: ['evaluacion anual', 'evaluacion del desempeno', 'como lo estoy haciendo'],
    means: 'appraisal evaluation review objectives evaluacion desempeno objetivos revision',
  },
  {
    en: ['my boss', 'my manager', 'who approves'],
    es: ['mi jefe', 'mi responsable', 'quien aprueba', 'mi superior'],
    means: 'manager supervisor approver hierarchy gerente supervisor aprobador jerarquia',
  },
  {
    en: ['return the laptop', 'hand in … badge', 'give back … laptop', 'company equipment'],
    es: ['devolver el portatil', 'entregar … tarjeta', 'devolver el equipo', 'material de la empresa'],
    means: 'offboarding equipment return revoke devolucion equipo revocar',
  },
  {
    en: ['contract ends', 'end of contract', 'fixed term', 'temporary contract', 'permanent contract'],
    es: ['fin de contrato', 'contrato temporal', 'contrato indefinido', 'se acaba el contrato'],
    means: 'contract term renewal expiry contrato duracion renovacion vencimiento',
  },
  {
    en: ['out of office', 'who covers for', 'stand in for', 'while … away'],
    es: ['fuera de la oficina', 'quien me sustituye', 'sustituto', 'mientras … fuera'],
    means: 'delegation substitute deputy delegacion sustituto suplente',
  },
  {
    en: ['second approval', 'two approvals', 'four eyes', 'second signature'],
    es: ['doble aprobacion', 'segunda aprobacion', 'dos firmas', 'segunda firma'],
    means: 'approval dual segregation aprobacion doble',
  },
  {
    en: ['waiting for approval', 'still pending', 'nobody approved'],
    es: ['pendiente de aprobar', 'sigue pendiente', 'atascado', 'nadie lo aprueba'],
    means: 'pending status approval escalation pendiente estado aprobacion escalado',
  },
  // Clinics and patients
  {
    en: ['see a doctor', 'see the doctor', 'visit the doctor', 'see the vet', 'check up', 'checkup'],
    es: ['ir al medico', 'ver al medico', 'ir al veterinario', 'revision medica', 'chequeo'],
    means: 'appointment visit consultation cita visita consulta',
  },
  {
    en: ['pills', 'refill', 'repeat prescription', 'renew my prescription'],
    es: ['pastillas', 'renovar la receta', 'recetar', 'receta repetida'],
    means: 'prescription medication dose receta medicacion dosis',
  },
  {
    en: ['allergic', 'side effect', 'side effects', 'bad reaction'],
    es: ['alergico', 'alergica', 'efecto secundario', 'efectos secundarios', 'reaccion adversa'],
    means: 'allergy contraindication warning alergia contraindicacion advertencia',
  },
  {
    en: ['shots', 'jabs', 'vaccinated', 'booster', 'due for … vaccine'],
    es: ['vacunado', 'vacunar', 'dosis de recuerdo', 'le toca la vacuna'],
    means: 'vaccination vaccine schedule reminder vacunacion vacuna calendario recordatorio',
  },
  {
    en: ['medical history', 'past illnesses', 'doctor wrote', 'notes from the visit'],
    es: ['historial medico', 'antecedentes', 'lo que escribio el medico', 'enfermedades anteriores'],
    means: 'record history clinical notes historial expediente clinico notas',
  },
  {
    en: ['urgent care', 'very ill', 'seriously ill', 'cannot wait', 'life threatening', 'badly hurt'],
    es: ['muy grave', 'no puede esperar', 'es grave', 'herido grave'],
    means: 'emergency triage urgent priority urgencia triaje urgente prioridad',
  },
  {
    en: ['send to a specialist', 'second opinion', 'another doctor'],
    es: ['derivar al especialista', 'segunda opinion', 'otro medico', 'mandar al especialista'],
    means: 'referral specialist derivacion especialista',
  },
  {
    en: ['lab results', 'blood test', 'x ray', 'blood work'],
    es: ['analisis de sangre', 'resultados del laboratorio', 'radiografia', 'resultados de las pruebas'],
    means: 'results laboratory diagnostic resultados laboratorio diagnostico',
  },
  {
    en: ['stay in hospital', 'admitted', 'sent home', 'discharged'],
    es: ['ingresado', 'ingreso hospitalario', 'dar el alta', 'le dan el alta'],
    means: 'admission discharge hospitalization ingreso alta hospitalizacion',
  },
  {
    en: ['my dog', 'my cat', 'my pet'],
    es: ['mi perro', 'mi gato', 'mi mascota'],
    means: 'patient pet animal paciente mascota',
  },
  {
    en: ['too expensive', 'cost estimate', 'how much will … cost', 'cannot afford'],
    es: ['presupuesto previo', 'cuanto me va a costar', 'no puedo pagarlo'],
    means: 'estimate quote budget presupuesto estimacion cotizacion',
  },
  // Courses and students
  {
    en: ['sign up for a course', 'join a class', 'take a course', 'register for'],
    es: ['apuntarse a un curso', 'matricularse', 'inscribirse en', 'apuntarme a'],
    means: 'enrollment registration course matricula inscripcion curso',
  },
  {
    en: ['failed the exam', 'pass the exam', 'my grades', 'final grade', 'exam results'],
    es: ['aprobar el examen', 'suspender el examen', 'nota final', 'mis notas'],
    means: 'grade assessment exam result calificacion evaluacion examen resultado',
  },
  {
    en: ['hand in', 'turn in', 'homework', 'submit … work'],
    es: ['entregar los deberes', 'entregar el trabajo', 'deberes', 'fecha de entrega'],
    means: 'assignment submission deadline entrega tarea plazo',
  },
  {
    en: ['skip class', 'missed class', 'did not attend', 'absent from'],
    es: ['falto a clase', 'no fue a clase', 'faltar a clase'],
    means: 'attendance absence asistencia ausencia',
  },
  {
    en: ['certificate of completion', 'finished the course', 'completed the course', 'proof … finished'],
    es: ['he terminado el curso', 'termine el curso', 'diploma', 'certificado de'],
    means: 'certificate completion certification certificado finalizacion certificacion',
  },
  // Lending and libraries
  {
    en: ['borrow a book', 'take out a book', 'check out a book', 'take home'],
    es: ['sacar un libro', 'llevarme un libro', 'pedir prestado', 'llevarme prestado'],
    means: 'loan lending prestamo',
  },
  {
    en: ['return late', 'bring … back late', 'keep it too long', 'kept it too long'],
    es: ['devolver tarde', 'devolverlo tarde', 'me lo quede demasiado'],
    means: 'overdue fine penalty late multa sancion retraso',
  },
  {
    en: ['someone else has it', 'all copies out', 'put my name down', 'join the queue'],
    es: ['lo tiene otro', 'apuntarme en la lista', 'ponerme en cola'],
    means: 'hold reservation queue reserva cola espera',
  },
  {
    en: ['lost … book', 'damaged … book', 'ruined … book'],
    es: ['perdi … libro', 'estropee … libro', 'libro roto'],
    means: 'loss replacement fee perdida reposicion tarifa',
  },
  // Warehouses, stock and transport
  {
    en: ['how many … left', 'running low', 'almost gone', 'low stock', 'enough stock'],
    es: ['cuantos quedan', 'quedan pocos', 'poco stock', 'stock bajo'],
    means: 'stock level threshold reorder existencias nivel umbral',
  },
  {
    en: ['where is it stored', 'which shelf', 'where … kept'],
    es: ['donde se guarda', 'en que estanteria', 'ubicacion en el almacen'],
    means: 'location bin shelf ubicacion estanteria',
  },
  {
    en: ['count the stock', 'stock take', 'stocktake', 'physical count'],
    es: ['recuento', 'hacer inventario', 'contar el stock'],
    means: 'stocktake count inventory audit recuento inventario',
  },
  {
    en: ['goods in', 'receive goods', 'incoming goods', 'delivery from supplier'],
    es: ['recepcion de mercancia', 'mercancia entrante', 'llega el proveedor'],
    means: 'receiving goods receipt supplier recepcion mercancia proveedor',
  },
  {
    en: ['get the order ready', 'prepare the order', 'pick and pack', 'pack the order'],
    es: ['preparar el pedido', 'empaquetar', 'embalar'],
    means: 'picking fulfillment preparation preparacion embalaje',
  },
  {
    en: ['move stock', 'between warehouses', 'to another warehouse'],
    es: ['mover stock', 'entre almacenes', 'a otro almacen'],
    means: 'transfer stock movement traslado transferencia movimiento',
  },
  {
    en: ['best before', 'goes bad'],
    es: ['fecha de caducidad', 'consumir preferentemente', 'se estropea', 'se pone malo'],
    means: 'expiry lot batch perishable caducidad lote perecedero',
  },
  {
    en: ['delivery route', 'order of stops', 'route planning', 'which driver'],
    es: ['ruta de reparto', 'orden de las paradas', 'que repartidor'],
    means: 'route planning stops ruta planificacion paradas',
  },
  // Support desks
  {
    en: ['open a ticket', 'raise a ticket', 'report a problem', 'log a complaint', 'something is wrong'],
    es: ['abrir una incidencia', 'reportar un problema', 'poner una queja', 'abrir un ticket'],
    means: 'ticket incident complaint support incidencia queja soporte',
  },
  {
    en: ['no answer', 'nobody answered', 'no reply', 'never replied', 'still no response'],
    es: ['no contestan', 'nadie responde', 'sin respuesta', 'no me responden'],
    means: 'sla response escalation reminder respuesta escalado',
  },
  {
    en: ['talk to a person', 'speak to someone', 'real person', 'human agent', 'call me back'],
    es: ['hablar con una persona', 'hablar con alguien', 'que me llamen'],
    means: 'escalation agent contact callback escalado agente contacto',
  },
  {
    en: ['still not fixed', 'still broken', 'fixed yet', 'how long … fix'],
    es: ['cuando lo arreglan', 'sigue sin funcionar', 'sigue roto', 'todavia no funciona'],
    means: 'resolution sla status resolucion estado',
  },
  {
    en: ['close the ticket', 'problem solved', 'mark as done', 'it is solved'],
    es: ['cerrar la incidencia', 'ya esta resuelto', 'marcar como resuelto'],
    means: 'resolution closure resolved resolucion cierre resuelto',
  },
  {
    en: ['happened again', 'keeps happening', 'same problem again'],
    es: ['ha vuelto a pasar', 'vuelve a pasar', 'otra vez el mismo problema'],
    means: 'reopen recurrence reopened reapertura recurrencia',
  },
  {
    en: ['who is working on', 'pick up the ticket', 'take the ticket', 'assigned to me'],
    es: ['quien lo lleva', 'asignado a mi', 'coger la incidencia'],
    means: 'assignment assignee owner asignacion asignado responsable',
  },
  {
    en: ['get in touch', 'how do i contact', 'phone number', 'contact details'],
    es: ['ponerme en contacto', 'como contacto', 'numero de telefono', 'datos de contacto'],
    means: 'contact channel support contacto canal soporte',
  },
  {
    en: ['not happy', 'unhappy', 'disappointed', 'bad service', 'complain about'],
    es: ['no estoy contento', 'quejarme', 'mal servicio', 'descontento'],
    means: 'complaint claim feedback queja reclamacion',
  },
  {
    en: ['appeal', 'disagree with', 'contest the', 'challenge the decision'],
    es: ['recurrir', 'no estoy de acuerdo', 'impugnar', 'apelar'],
    means: 'appeal dispute review recurso reclamacion revision',
  },
  {
    en: ['turn down', 'say no', 'not approved', 'gets rejected'],
    es: ['decir que no', 'no aprobado', 'no lo aprueban'],
    means: 'rejection denial reason rechazo denegacion motivo',
  },
  // Banking and loans
  {
    en: ['borrow money', 'need a loan', 'ask for a loan', 'lend me'],
    es: ['pedir un prestamo', 'pedir dinero prestado', 'solicitar un prestamo'],
    means: 'loan application credit prestamo solicitud credito',
  },
  {
    en: ['pay back the loan', 'monthly repayment', 'repay', 'repayments'],
    es: ['devolver el prestamo', 'cuota del prestamo', 'amortizar'],
    means: 'repayment installment amortization schedule amortizacion cuota',
  },
  {
    en: ['how much interest', 'interest rate', 'apr'],
    es: ['tipo de interes', 'cuanto interes'],
    means: 'interest rate apr tasa interes',
  },
  {
    en: ['credit check', 'credit score', 'am i eligible', 'do i qualify'],
    es: ['me lo conceden', 'soy apto', 'historial crediticio'],
    means: 'eligibility scoring risk creditworthiness elegibilidad solvencia riesgo',
  },
  {
    en: ['not enough money', 'overdrawn', 'in the red', 'no funds'],
    es: ['sin saldo', 'saldo insuficiente', 'no tengo dinero', 'numeros rojos'],
    means: 'balance overdraft insufficient funds saldo descubierto insuficiente fondos',
  },
  {
    en: ['send money', 'wire money', 'pay someone', 'move money'],
    es: ['enviar dinero', 'mandar dinero', 'hacer una transferencia'],
    means: 'transfer payment beneficiary transferencia pago beneficiario',
  },
  {
    en: ['take out cash', 'get cash', 'cash machine'],
    es: ['sacar dinero', 'retirar efectivo', 'cajero automatico'],
    means: 'withdrawal cash atm retirada efectivo cajero',
  },
  {
    en: ['bank statement', 'see my movements', 'what i spent'],
    es: ['extracto', 'ver mis movimientos', 'en que he gastado'],
    means: 'statement transactions history extracto movimientos historial',
  },
  // Insurance
  {
    en: ['had an accident', 'crashed my car', 'car crash', 'got hurt'],
    es: ['tuve un accidente', 'me dieron un golpe', 'siniestro', 'parte del accidente'],
    means: 'claim incident accident damage siniestro reclamacion accidente dano',
  },
  {
    en: ['are we covered', 'does it cover', 'is it covered', 'what is covered'],
    es: ['esta cubierto', 'lo cubre', 'que cubre', 'que incluye la poliza'],
    means: 'coverage policy exclusion cobertura poliza exclusion',
  },
  {
    en: ['someone stole', 'stolen', 'broke in', 'robbed'],
    es: ['me robaron', 'robado', 'nos robaron', 'entraron a robar'],
    means: 'theft claim police robo denuncia reclamacion',
  },
  {
    en: ['who pays', 'pay out', 'paid for the damage'],
    es: ['quien paga', 'me pagan el dano', 'indemnizacion'],
    means: 'indemnity payout compensation settlement indemnizacion compensacion',
  },
  // Rentals and property
  {
    en: ['rent a flat', 'place to live', 'moving in', 'looking for a flat'],
    es: ['alquilar un piso', 'buscar piso', 'mudarme', 'entrar a vivir'],
    means: 'rental lease tenant property alquiler arrendamiento inquilino inmueble',
  },
  {
    en: ['pay the rent', 'rent is due', 'monthly rent', 'rent went up'],
    es: ['pagar el alquiler', 'subida del alquiler', 'renta mensual'],
    means: 'rent payment increase alquiler renta pago',
  },
  {
    en: ['broke down', 'call a plumber'],
    es: ['averia', 'averiado', 'llamar al fontanero'],
    means: 'maintenance repair request incident mantenimiento reparacion averia',
  },
  {
    en: ['get my deposit', 'keep the deposit', 'deposit back'],
    es: ['devolver la fianza', 'recuperar la fianza', 'quedarse la fianza'],
    means: 'deposit refund inspection fianza deposito devolucion',
  },
  {
    en: ['leave the flat', 'end the lease', 'give notice'],
    es: ['dejar el piso', 'irme del piso', 'rescindir el contrato', 'preaviso'],
    means: 'termination notice lease rescission rescision preaviso',
  },
  {
    en: ['see the flat', 'see the house', 'show the apartment'],
    es: ['ver el piso', 'visitar la casa', 'ensenar el piso'],
    means: 'viewing visit appointment visita cita',
  },
  // Events and travel
  {
    en: ['buy tickets', 'get tickets', 'book tickets', 'tickets for'],
    es: ['comprar entradas', 'sacar entradas', 'reservar entradas'],
    means: 'ticket booking purchase entrada reserva compra',
  },
  {
    en: ['pick a seat', 'choose my seat', 'where do i sit', 'front row', 'seat number'],
    es: ['elegir asiento', 'elegir butaca', 'donde me siento'],
    means: 'seat seating allocation asiento butaca asignacion',
  },
  {
    en: ['event cancelled', 'show cancelled', 'postponed', 'moved to a later date'],
    es: ['se cancela el evento', 'se aplaza', 'aplazado', 'cambio de fecha'],
    means: 'cancellation postponement refund cancelacion aplazamiento reembolso',
  },
  {
    en: ['at the door', 'scan the ticket', 'qr code', 'get in with'],
    es: ['en la puerta', 'escanear la entrada', 'codigo qr'],
    means: 'admission access checkin validation acceso validacion',
  },
  {
    en: ['plus one', 'extra person', 'group booking'],
    es: ['acompanante', 'reserva de grupo', 'persona extra'],
    means: 'guest group companion invitado grupo acompanante',
  },
  {
    en: ['flight delayed', 'flight cancelled', 'missed my flight', 'missed the connection'],
    es: ['vuelo retrasado', 'vuelo cancelado', 'perdi el vuelo', 'perdi la conexion'],
    means: 'flight delay cancellation compensation vuelo retraso cancelacion compensacion',
  },
  {
    en: ['suitcase', 'luggage allowance', 'extra bag', 'lost luggage'],
    es: ['maleta', 'equipaje de mano', 'equipaje perdido', 'maleta extra'],
    means: 'baggage luggage allowance equipaje franquicia',
  },
  {
    en: ['where to stay', 'hotel room', 'place to sleep'],
    es: ['donde dormir', 'habitacion de hotel', 'alojamiento'],
    means: 'accommodation lodging hotel room alojamiento hotel habitacion',
  },
  {
    en: ['passport', 'id card', 'documents to travel'],
    es: ['pasaporte', 'dni', 'documentos para viajar'],
    means: 'identity document identification passport identidad documento identificacion pasaporte',
  },
  {
    en: ['return ticket', 'return flight'],
    es: ['ida y vuelta', 'solo ida', 'billete de vuelta'],
    means: 'itinerary trip journey itinerario viaje',
  },
  // Factories
  {
    en: ['machine stopped', 'line stopped', 'machine broke', 'stopped working'],
    es: ['se paro la maquina', 'parada de linea', 'maquina parada'],
    means: 'downtime breakdown maintenance stoppage parada averia mantenimiento',
  },
  {
    en: ['bad parts', 'faulty batch', 'reject rate', 'rework', 'quality problem'],
    es: ['piezas defectuosas', 'lote defectuoso', 'retrabajo', 'problema de calidad'],
    means: 'quality defect nonconformity inspection calidad defecto inspeccion',
  },
  {
    en: ['how many to make', 'production plan', 'what to make next'],
    es: ['cuanto fabricar', 'plan de produccion', 'que fabricar'],
    means: 'production planning capacity produccion planificacion capacidad',
  },
  {
    en: ['parts list', 'components needed', 'ingredients'],
    es: ['lista de materiales', 'que lleva', 'componentes necesarios', 'ingredientes'],
    means: 'bom materials components material componentes',
  },
  {
    en: ['service the machine', 'regular check', 'before it breaks'],
    es: ['revision periodica', 'mantenimiento preventivo', 'antes de que se rompa'],
    means: 'maintenance preventive inspection schedule mantenimiento preventivo inspeccion',
  },
  {
    en: ['which batch', 'trace the batch', 'product recall'],
    es: ['de que lote', 'retirada del producto', 'rastrear el lote'],
    means: 'traceability lot batch recall trazabilidad lote retirada',
  },
  // Software delivery and operations
  {
    en: ['go live', 'ship it', 'put in production', 'push to production', 'roll out'],
    es: ['pasar a produccion', 'poner en produccion', 'salir en vivo', 'subir a produccion'],
    means: 'deployment release rollout despliegue lanzamiento',
  },
  {
    en: ['roll back', 'undo the release', 'undo the deployment'],
    es: ['volver a la version anterior', 'deshacer el despliegue'],
    means: 'rollback version revert previous reversion anterior',
  },
  {
    en: ['site is down', 'app is down', 'it crashed', 'servers down', 'nobody can use'],
    es: ['la web no funciona', 'se ha caido', 'esta caido', 'nadie puede usar'],
    means: 'incident outage severity oncall incidente caida severidad guardia',
  },
  {
    en: ['who is on call', 'wake someone up'],
    es: ['quien esta de guardia', 'de guardia'],
    means: 'oncall escalation incident guardia escalado incidente',
  },
  {
    en: ['what went wrong', 'why did it break', 'root cause', 'post mortem', 'lessons learned'],
    es: ['que fallo', 'por que fallo', 'causa raiz', 'lecciones aprendidas'],
    means: 'postmortem rootcause analysis incident analisis incidente',
  },
  {
    en: ['release notes', 'changelog', 'whats new', 'what is new'],
    es: ['novedades', 'notas de la version', 'que hay de nuevo'],
    means: 'release changelog version notes lanzamiento version notas',
  },
  {
    en: ['takes forever', 'too slow', 'loading forever', 'very slow'],
    es: ['va lento', 'tarda mucho', 'se queda cargando', 'muy lento'],
    means: 'performance latency response rendimiento latencia respuesta',
  },
  {
    en: ['test it before', 'staging', 'before going live'],
    es: ['probar antes', 'preproduccion'],
    means: 'staging environment testing preproduccion entorno pruebas',
  },
  // Any product: forms, lists, files, reports, channels
  {
    en: ['paper copy', 'on paper'],
    es: ['imprimir', 'en papel', 'copia en papel'],
    means: 'export print document pdf exportar imprimir documento',
  },
  {
    en: ['in my language', 'in spanish', 'in english', 'other languages'],
    es: ['en mi idioma', 'en ingles', 'en espanol', 'otros idiomas'],
    means: 'language translation localization idioma traduccion localizacion',
  },
  {
    en: ['on my phone', 'from my mobile', 'on the app', 'from the app'],
    es: ['desde el movil', 'en el movil', 'desde la app'],
    means: 'mobile app device movil aplicacion dispositivo',
  },
  {
    en: ['screen reader', 'cannot see well', 'wheelchair', 'blind users'],
    es: ['lector de pantalla', 'silla de ruedas', 'personas ciegas', 'discapacidad'],
    means: 'accessibility disability accesibilidad discapacidad',
  },
  {
    en: ['at a glance', 'big picture'],
    es: ['de un vistazo', 'vista general', 'vision general'],
    means: 'dashboard summary report panel resumen informe',
  },
  {
    en: ['monthly figures', 'statistics', 'how many … per month', 'numbers for the month'],
    es: ['cifras del mes', 'estadisticas', 'cuantos … al mes'],
    means: 'report statistics metrics informe estadisticas metricas',
  },
  {
    en: ['send to excel', 'spreadsheet', 'csv', 'download the list'],
    es: ['hoja de calculo', 'pasar a excel', 'descargar el listado'],
    means: 'export csv report exportar informe',
  },
  {
    en: ['bring in data', 'from a spreadsheet', 'upload a list'],
    es: ['subir un listado', 'subir un excel'],
    means: 'import upload importar subir',
  },
  {
    en: ['filter by', 'search by', 'only show', 'narrow down'],
    es: ['filtrar por', 'mostrar solo', 'buscar por'],
    means: 'filter search criteria filtro busqueda criterio',
  },
  {
    en: ['sort by', 'newest first', 'oldest first', 'cheapest first'],
    es: ['ordenar por', 'los mas recientes', 'primero los mas'],
    means: 'sort sorting ordenar ordenacion',
  },
  {
    en: ['fill in the form', 'fill out', 'required fields', 'left blank', 'empty field'],
    es: ['rellenar el formulario', 'campo obligatorio', 'campos vacios', 'dejar en blanco'],
    means: 'validation mandatory required field validacion obligatorio campo',
  },
  {
    en: ['upload a photo', 'attach a file', 'send a picture', 'add a document'],
    es: ['adjuntar', 'subir una foto', 'adjuntar un archivo'],
    means: 'attachment upload file document adjunto archivo documento',
  },
  {
    en: ['check … by hand', 'someone checks', 'look at it first', 'manual check'],
    es: ['revisar a mano', 'lo revisa alguien', 'revision manual'],
    means: 'review manual moderation approval revision moderacion',
  },
  {
    en: ['sign the contract', 'sign electronically', 'e sign', 'digital signature'],
    es: ['firmar el contrato', 'firma electronica', 'firmar online', 'firma digital'],
    means: 'signature contract agreement firma contrato',
  },
  {
    en: ['how old', 'date of birth', 'born in'],
    es: ['cuantos anos', 'fecha de nacimiento', 'nacido en'],
    means: 'age birthdate edad nacimiento',
  },
  {
    en: ['how to get there', 'near me'],
    es: ['como llegar', 'cerca de mi', 'el mas cercano', 'mas cerca'],
    means: 'location address map distance ubicacion direccion mapa distancia',
  },
];
