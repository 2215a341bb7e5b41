# language: es
@BR-REEMBOLSO-001 @UC-001
Característica: Devoluciones y reembolsos
  Como cliente
  Quiero devolver lo que no me convence
  Para recuperar mi dinero

  Escenario: SCN-Reembolso-001 — Devolución en plazo
    Dado que recibí un molinillo de 60 € el 3 de marzo
    Cuando lo devuelvo el 15 de marzo
    Entonces se me reembolsan 55,05 €
    Y se emite una factura rectificativa

  Escenario: SCN-Reembolso-002 — Fuera de plazo
    Dado que recibí un molinillo el 3 de marzo
    Cuando intento devolverlo el 20 de marzo
    Entonces la devolución se rechaza con "FUERA_DE_PLAZO"

  @BP-COBRO-001
  Escenario: SCN-Cobro-001 — Tres rechazos cancelan el pedido
    Dado que mi tarjeta ha sido rechazada dos veces
    Cuando se rechaza por tercera vez
    Entonces el pedido se cancela
