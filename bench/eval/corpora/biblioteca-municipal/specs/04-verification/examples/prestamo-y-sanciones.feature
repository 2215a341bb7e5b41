# language: es
@BR-PRESTAMO-001 @BR-PRESTAMO-002 @BR-SANCION-001
Característica: Préstamo, devolución y sanciones
  Como socia de la biblioteca
  Quiero saber cuándo devolver y qué pasa si me retraso
  Para no quedarme sin carnet

  Antecedentes:
    Dado que Lucía tiene carnet adulto sin sanciones
    Y la sucursal Norte abre de lunes a sábado

  Escenario: SCN-Prestamo-001 — Plazo de un libro
    Dado que Lucía se lleva "La ciudad y los perros" el lunes 2 de marzo
    Cuando se registra el préstamo
    Entonces la fecha de devolución es el lunes 23 de marzo

  Escenario: SCN-Prestamo-002 — Noveno préstamo rechazado
    Dado que Lucía tiene 8 préstamos abiertos
    Cuando intenta llevarse otro libro
    Entonces el préstamo se rechaza con "LIMITE_ALCANZADO"

  Escenario: SCN-Sancion-001 — Cortesía de dos días
    Dado que Lucía devuelve un libro con 2 días de retraso
    Entonces no recibe ninguna sanción

  Escenario: SCN-Sancion-002 — DVD con retraso
    Dado que Lucía devuelve un DVD con 30 días de retraso
    Entonces se le impone una multa de 10 €
