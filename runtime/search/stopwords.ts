/** Spanish and English stop words, already accent-folded and lower-cased (compared after folding). */
const WORDS = `
a al algo algun alguna algunas alguno algunos ante antes aqui asi aun cada como con contra cual cuales
cuando de del desde donde dos el ella ellas ellos en entre era eran es esa esas ese eso esos esta estan
estas este esto estos fue fueron ha han hasta hay la las le les lo los mas me mi mis muy ni no nos o os
otra otras otro otros para pero poco por porque que quien se sea sean segun ser si sin sino sobre solo
son su sus tal tambien te tiene tienen todo todos tu tus un una unas uno unos usted ya yo cuyo cuya
about above after again all also am an and any are as at be because been before being below between both
but by can could did do does doing done down during each few for from further had has have having he her
here hers him his how i if in into is it its itself just me more most my no nor not now of off on once
only or other our out over own same she should so some such than that the their them then there these
they this those through to too under until up very was we were what when where which while who whom why
will with would you your yours shall may might must let get
`;
export const STOP_WORDS: ReadonlySet<string> = new Set(WORDS.split(/\s+/).filter(Boolean));
