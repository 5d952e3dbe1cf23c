/**
 * Schema words in Spanish, Portuguese, German, French and Italian, read as the English word the
 * analyst reasons with (docs/offline-analyst.md#names-in-other-languages): `FechaPedido` is
 * `fecha pedido`, an order date; `cantidad` a quantity, `Einzelpreis` a unit price. Only the
 * vocabulary of roles, measures, dates, places and businesses is listed: the words a schema's
 * names are made of. Accents are read past before lookup (`año` is `ano`, `quantité` `quantite`).
 */

/** English → its words in the five languages (singular and common plural forms). */
const CONCEPTS: Record<string, string[]> = {
  date: ['fecha', 'fechas', 'data', 'datum', 'datas'],
  order: [
    'bestell',
    'pedido',
    'pedidos',
    'orden',
    'ordenes',
    'encomenda',
    'encomendas',
    'bestellung',
    'bestellungen',
    'auftrag',
    'auftrage',
    'commande',
    'commandes',
    'ordine',
    'ordini',
  ],
  line: [
    'position',
    'positionen',
    'linea',
    'lineas',
    'linha',
    'linhas',
    'zeile',
    'ligne',
    'lignes',
    'riga',
    'righe',
    'posicion',
    'posten',
  ],
  detail: [
    'detalle',
    'detalles',
    'detalhe',
    'detalhes',
    'dettaglio',
    'dettagli',
    'detail',
    'details',
    'einzelheit',
  ],
  item: [
    'articulo',
    'articulos',
    'artigo',
    'artigos',
    'artikel',
    'articolo',
    'articoli',
    'itens',
    'elemento',
  ],
  customer: ['cliente', 'clientes', 'clienti', 'kunde', 'kunden', 'client', 'clients'],
  product: [
    'producto',
    'productos',
    'produto',
    'produtos',
    'produkt',
    'produkte',
    'produit',
    'produits',
    'prodotto',
    'prodotti',
  ],
  quantity: [
    'cantidad',
    'cantidades',
    'quantidade',
    'quantidades',
    'menge',
    'mengen',
    'anzahl',
    'quantite',
    'quantita',
    'qta',
    'cant',
    'qtd',
    'qtde',
  ],
  units: ['unidades', 'unites', 'einheiten', 'unita'],
  price: ['precio', 'precios', 'preco', 'precos', 'preis', 'preise', 'prix', 'prezzo', 'prezzi'],
  unit: ['unitario', 'unitaria', 'unidad', 'unitaire', 'einzel', 'stuck'],
  amount: [
    'importe',
    'importes',
    'monto',
    'montos',
    'montante',
    'betrag',
    'betrage',
    'montant',
    'montants',
    'importo',
    'importi',
  ],
  value: ['valor', 'valores', 'wert', 'werte', 'valeur', 'valore'],
  total: ['totale', 'totali', 'gesamt', 'summe', 'gesamtbetrag'],
  payment: [
    'pago',
    'pagos',
    'pagamento',
    'pagamentos',
    'pagamenti',
    'zahlung',
    'zahlungen',
    'paiement',
    'paiements',
  ],
  invoice: [
    'factura',
    'facturas',
    'fatura',
    'faturas',
    'rechnung',
    'rechnungen',
    'facture',
    'factures',
    'fattura',
    'fatture',
  ],
  employee: [
    'empleado',
    'empleados',
    'empregado',
    'empregados',
    'funcionario',
    'funcionarios',
    'mitarbeiter',
    'angestellte',
    'employe',
    'employes',
    'dipendente',
    'dipendenti',
  ],
  office: [
    'oficina',
    'oficinas',
    'escritorio',
    'escritorios',
    'buro',
    'bureau',
    'bureaux',
    'ufficio',
    'uffici',
  ],
  sale: [
    'venta',
    'ventas',
    'venda',
    'vendas',
    'verkauf',
    'verkaufe',
    'umsatz',
    'vente',
    'ventes',
    'vendita',
    'vendite',
  ],
  purchase: ['compra', 'compras', 'einkauf', 'einkaufe', 'achat', 'achats', 'acquisto', 'acquisti'],
  supplier: [
    'proveedor',
    'proveedores',
    'fornecedor',
    'fornecedores',
    'lieferant',
    'lieferanten',
    'fournisseur',
    'fournisseurs',
    'fornitore',
    'fornitori',
  ],
  category: [
    'categoria',
    'categorias',
    'categorie',
    'kategorie',
    'kategorien',
    'gama',
    'gamas',
    'familia',
    'familie',
    'famille',
    'rubro',
  ],
  country: ['pais', 'paises', 'land', 'lander', 'pays', 'paese', 'paesi', 'nacion'],
  city: [
    'ciudad',
    'ciudades',
    'cidade',
    'cidades',
    'stadt',
    'ort',
    'ville',
    'citta',
    'municipio',
    'localidad',
  ],
  region: ['regiao', 'bundesland', 'provincia', 'provincias', 'uf', 'departamento'],
  name: ['nombre', 'nombres', 'nome', 'nomi', 'nom', 'bezeichnung', 'razon'],
  description: ['descripcion', 'descricao', 'beschreibung', 'descrizione'],
  code: ['codigo', 'codigos', 'codice', 'kennung', 'cod'],
  number: ['nr', 'numero', 'numeros', 'nummer', 'nro', 'nmr'],
  stock: ['lager', 'existencias', 'estoque', 'bestand', 'lagerbestand', 'giacenza', 'inventario'],
  discount: [
    'descuento',
    'descuentos',
    'desconto',
    'descontos',
    'rabatt',
    'remise',
    'sconto',
    'bonificacion',
  ],
  tax: ['impuesto', 'impuestos', 'imposto', 'impostos', 'iva', 'steuer', 'mwst', 'taxe', 'tva', 'imposta'],
  cost: ['costo', 'costos', 'custo', 'custos', 'kosten', 'cout', 'couts', 'costi'],
  expense: [
    'gasto',
    'gastos',
    'despesa',
    'despesas',
    'ausgabe',
    'ausgaben',
    'depense',
    'depenses',
    'spesa',
    'spese',
  ],
  refund: ['reembolso', 'reembolsado', 'reembolsada', 'erstattung', 'remboursement', 'rimborso'],
  shipping: ['envio', 'envios', 'frete', 'versand', 'expedition', 'spedizione'],
  delivery: ['entrega', 'entregas', 'lieferung', 'livraison', 'consegna'],
  expected: ['esperada', 'esperado', 'prevista', 'previsto', 'faellig', 'prevue', 'prevu'],
  store: [
    'tienda',
    'tiendas',
    'loja',
    'lojas',
    'filiale',
    'geschaeft',
    'laden',
    'magasin',
    'negozio',
    'negozi',
    'sucursal',
  ],
  birth: ['nacimiento', 'nascimento', 'geburt', 'geburtsdatum', 'naissance', 'nascita'],
  hire: [
    'contratacion',
    'contratacao',
    'admision',
    'admissao',
    'einstellung',
    'eintritt',
    'embauche',
    'assunzione',
  ],
  created: ['creacion', 'criacao', 'erstellt', 'erstellung', 'creation', 'creazione', 'alta'],
  updated: [
    'modificacion',
    'actualizacion',
    'atualizacao',
    'geandert',
    'aenderung',
    'modification',
    'modifica',
  ],
  status: ['estado', 'estatus', 'situacion', 'situacao', 'zustand', 'statut', 'stato'],
  method: ['forma', 'metodo', 'methode', 'modo'],
  transaction: [
    'transaccion',
    'transacciones',
    'transacao',
    'transacoes',
    'buchung',
    'buchungen',
    'operacion',
    'transazione',
  ],
  address: ['direccion', 'endereco', 'adresse', 'indirizzo', 'strasse', 'rue'],
  phone: ['telefono', 'telefone', 'telefon', 'telephone', 'movil', 'celular'],
  postal: ['postleitzahl', 'plz', 'cep'],
  comment: [
    'comentario',
    'comentarios',
    'observacion',
    'observaciones',
    'observacao',
    'kommentar',
    'bemerkung',
    'commentaire',
    'commento',
    'note',
  ],
  manager: ['jefe', 'gerente', 'chef', 'leiter', 'responsable', 'responsabile'],
  weight: ['peso', 'gewicht', 'poids'],
  duration: ['duracion', 'duracao', 'dauer', 'duree', 'durata'],
  limit: ['limite', 'limit', 'grenze'],
  credit: ['credito', 'kredit', 'credit'],
  balance: ['saldo', 'saldos', 'solde', 'kontostand'],
  account: ['cuenta', 'cuentas', 'conta', 'contas', 'konto', 'konten', 'compte', 'comptes', 'conto', 'conti'],
  sold: ['vendido', 'vendida', 'verkauft', 'vendu', 'venduto'],
  shipped: ['enviado', 'enviada', 'versandt', 'expedie', 'spedito'],
  paid: ['pagado', 'pagada', 'bezahlt', 'paye', 'pagato'],
  start: ['inicio', 'comienzo', 'beginn', 'debut', 'inizio'],
  end: ['fim', 'ende'],
  first: ['primer', 'primero', 'primeiro', 'erste', 'premier', 'primo'],
  last: ['ultimo', 'ultima', 'letzte', 'dernier'],
  wholesale: [
    'grosshandel',
    'grosshandler',
    'mayorista',
    'mayoristas',
    'atacado',
    'atacadista',
    'grossiste',
    'ingrosso',
    'grossista',
  ],
  retail: ['einzelhandel', 'minorista', 'minoristas', 'varejo', 'varejista', 'detaillant'],
  senator: ['senador', 'senadores', 'senator', 'senateur', 'senatore'],
  document: ['documento', 'dokument', 'documents'],
  type: ['tipo', 'tipos', 'typ'],
  year: ['ano', 'anio', 'jahr', 'annee', 'anno', 'ejercicio'],
  month: ['mes', 'meses', 'monat', 'mois', 'mese'],
  day: ['dia', 'dias', 'jour', 'giorno'],
};

const FOREIGN: ReadonlyMap<string, string> = new Map(
  Object.entries(CONCEPTS).flatMap(([english, words]) => words.map((w) => [w, english] as const)),
);

/** The English word a foreign schema word stands for (accents already read past), or undefined. */
export function englishWord(word: string): string | undefined {
  return FOREIGN.get(word);
}

/**
 * A compound of words of the table (`Einzelpreis` → `einzel` + `preis`, `Zahlungsdatum` → `zahlung`
 * + `s` + `datum`, as German joins them), as English words; undefined unless the whole token splits
 * into two or more listed words of three letters or more.
 */
export function compoundWords(token: string): string[] | undefined {
  // Names repeat across a source's tables and every reading of them: split each token once.
  if (compounds.has(token)) return compounds.get(token) ?? undefined;
  const words = splitCompound(token);
  // Bounded: a source may have any number of names, the worker holds this for its life.
  if (compounds.size >= 20_000) compounds.clear();
  compounds.set(token, words ?? null);
  return words;
}

/** compoundWords' answers by token; null where a token is no compound. */
const compounds = new Map<string, string[] | null>();

function splitCompound(token: string): string[] | undefined {
  // best[i]: the fewest pieces covering token[0, i), and where the last starts.
  const best: { pieces: number; from: number; word?: string }[] = [{ pieces: 0, from: 0 }];
  for (let i = 1; i <= token.length; i++) {
    let choice: { pieces: number; from: number; word?: string } = { pieces: Infinity, from: -1 };
    for (let j = 0; j <= i - 3; j++) {
      if (best[j].pieces === Infinity) continue;
      const piece = token.slice(j, i);
      // A linking `s` between two words (`zahlungsdatum`) belongs to the first.
      const english =
        FOREIGN.get(piece) ?? (piece.endsWith('s') ? FOREIGN.get(piece.slice(0, -1)) : undefined);
      if (english && best[j].pieces + 1 < choice.pieces)
        choice = { pieces: best[j].pieces + 1, from: j, word: english };
    }
    best.push(choice);
  }
  if (best[token.length].pieces === Infinity || best[token.length].pieces < 2) return undefined;
  const words: string[] = [];
  for (let i = token.length; i > 0; i = best[i].from) words.unshift(best[i].word!);
  return words;
}

/** A name with its accents read past (`año` → `ano`, `Straße` → `Strasse`), so words split at letters only. */
export const withoutAccents = (name: string): string =>
  name
    .replace(/ß/g, 'ss')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
