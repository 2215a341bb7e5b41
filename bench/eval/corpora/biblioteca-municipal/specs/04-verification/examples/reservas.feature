# language: es
@BR-RESERVA-001 @UC-004
Característica: Reservas de obras prestadas
  Como socio
  Quiero apuntarme a la lista de espera de una obra
  Para llevármela en cuanto vuelva

  Escenario: SCN-Reserva-001 — Aviso al primero de la cola
    Dado que Pablo es el primero en la cola de "Patria"
    Cuando otro socio devuelve un ejemplar de "Patria"
    Entonces el ejemplar se aparta para Pablo
    Y Pablo tiene 3 días hábiles para recogerlo

  Escenario: SCN-Reserva-002 — Reserva no recogida
    Dado que Pablo no recoge el ejemplar en 3 días hábiles
    Entonces su reserva caduca
    Y el ejemplar pasa al siguiente de la cola

  @BP-RENOVACION-001
  Escenario: SCN-Reserva-003 — No se renueva si hay cola
    Dado que Ana tiene prestado "Patria" y hay una reserva sobre la obra
    Cuando Ana intenta renovar
    Entonces la renovación se rechaza con "HAY_RESERVAS"
