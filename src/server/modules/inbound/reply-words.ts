/**
 * The words mail programs write around a reply, in the languages they write them (reply-text.ts
 * reads the structure; these say which line is which). Labels are compared in lower case, without
 * the colon.
 */

/** The verb that ends an attribution line: "… wrote:", "… a écrit :", "… 写道：", "---- Kiri wrote ----". */
export const WROTE = new RegExp(
  `(${[
    'wrote',
    'writes',
    'pisze',
    'sent',
    'schrieb',
    'geschrieben',
    'schreef',
    'a écrit',
    'escribió',
    'escribio',
    'ha scritto',
    'scrisse',
    'escreveu',
    'skrev',
    'kirjoitti',
    'napisał\\(a\\)',
    'napisała',
    'napisał',
    'napsal\\(a\\)',
    'napsala',
    'napsal',
    'írta',
    'yazdı',
    'menulis',
    'đã viết',
    'написал\\(а\\)',
    'написала',
    'написал',
    'пишет',
    'έγραψε',
    'a scris',
    'kirjutas',
    'rakstīja',
    'parašė',
    'napisao',
    'je napisal',
    '写道',
    '寫道',
    'が書きました',
    '님이 작성',
  ].join('|')})\\s*[:：]?$`,
  'iu',
);

/** Thunderbird's verbs, which it puts inside the line: "Am … schrieb Bagspace:", "Den … skrev Bagspace:". */
export const WROTE_INSIDE =
  /(^|\s)(wrote|schrieb|schreef|skrev|kirjoitti|pisze|napisał|napsal|írta|escribió|escreveu|ha scritto|a écrit|написал|пишет|đã viết|menulis|έγραψε)(\s|[:：,]|$)/iu;

/** Where an attribution starts when it shares its line with an answer: "… fine. On Fri, …". */
export const ATTRIBUTION_OPENERS = /(?<=\s)(On|Am|Le|El|Il giorno|Il|Em|Op|Den|På|W dniu|Dne|Vào|Pada|Στις)\s/gu;

/** An attribution's opening word at the start of a line. */
export const ATTRIBUTION_OPENERS_AT_START = /^\s*(On|Am|Le|El|Il giorno|Il|Em|Op|Den|På|W dniu|Dne|Vào|Pada|Στις)\s/u;

/** A sign-off's first line, in the languages customers write. */
export const CLOSING =
  /^(thanks|thank you|many thanks|cheers|regards|kind regards|best|best regards|best wishes|warm regards|all the best|ngā mihi|nga mihi|mauri ora|noho ora mai|ka kite|nāku noa|naku noa|arohanui|ta|thx|danke|viele grüße|liebe grüße|mfg|merci|cordialement|bien à vous|gracias|saludos|grazie|saluti|cordiali saluti|obrigad[oa]|abraços|atenciosamente|bedankt|groeten|met vriendelijke groet|tak|mvh|hilsen|vänliga hälsningar|med vänlig hälsning|hälsningar|kiitos|terveisin|dziękuję|pozdrawiam|спасибо|с уважением|cảm ơn|trân trọng|terima kasih|salam|děkuji|s pozdravem|köszönöm|üdvözlettel|teşekkürler|saygılarımla|ευχαριστώ|谢谢|ありがとう|감사합니다)\b[\s\S]{0,20}$/iu;

/** A sender's label in a header block. */
export const FROM_LABELS = new Set([
  'from',
  'von',
  'de',
  'fra',
  'från',
  'van',
  'da',
  'od',
  'от',
  'lähettäjä',
  'feladó',
  'kimden',
  'từ',
  'dari',
  'afzender',
  'remitente',
  'mittente',
  'avsändare',
  'afsender',
  'avsender',
  'αποστολέας',
  'από',
  '보낸 사람',
  '发件人',
  '寄件者',
  '差出人',
  'expéditeur',
  'absender',
  'nadawca',
  'odesílatel',
]);

/** A subject's label. */
export const SUBJECT_LABELS = new Set([
  'subject',
  'betreff',
  'objet',
  'asunto',
  'assunto',
  'oggetto',
  'onderwerp',
  'emne',
  'ämne',
  'aihe',
  'temat',
  'тема',
  'chủ đề',
  'předmět',
  'tárgy',
  'konu',
  'perihal',
  'subjek',
  'θέμα',
  '主题',
  '主旨',
  '件名',
  '제목',
  'tema',
]);

/** Every other label of a header block: date, sent, recipients. */
export const HEADER_LABELS = new Set([
  ...SUBJECT_LABELS,
  'sent',
  'date',
  'to',
  'cc',
  'bcc',
  'reply-to',
  'gesendet',
  'datum',
  'an',
  'kopie',
  'envoyé',
  'à',
  'a',
  'enviado',
  'enviada',
  'para',
  'fecha',
  'inviato',
  'data',
  'verzonden',
  'aan',
  'sendt',
  'til',
  'skickat',
  'till',
  'kopia',
  'lähetetty',
  'vastaanottaja',
  'päivämäärä',
  'kopio',
  'wysłano',
  'do',
  'отправлено',
  'дата',
  'кому',
  'копия',
  'đã gửi',
  'gửi',
  'ngày',
  'đến',
  'odesláno',
  'komu',
  'elküldve',
  'címzett',
  'dátum',
  'gönderildi',
  'tarih',
  'kime',
  'terkirim',
  'tanggal',
  'kepada',
  'ημερομηνία',
  'στάλθηκε',
  'προς',
  '发送时间',
  '收件人',
  '日期',
  '寄件日期',
  '收件者',
  '送信日時',
  '宛先',
  '보낸 날짜',
  '받는 사람',
]);

/** A forward's own title line: Gmail's, Apple Mail's, Thunderbird's, Outlook's, in their languages. */
export const FORWARD_LINE =
  /^\s*[-=_*]*\s*(Forwarded message|Begin forwarded message|Forwarded Message|Weitergeleitete Nachricht|Anfang der weitergeleiteten Nachricht|Message transféré|Début du message (réexpédié|transféré)|Mensaje reenviado|Inicio del mensaje reenviado|Messaggio inoltrato|Inizio messaggio inoltrato|Mensagem encaminhada|Início da mensagem reencaminhada|Doorgestuurd bericht|Begin doorgestuurd bericht|Videresendt (meddelelse|melding)|Vidarebefordrat meddelande|Välitetty viesti|Przekazana wiadomość|Пересылаемое сообщение|Пересланное сообщение|Přeposlaná zpráva|Továbbított üzenet|İletilen ileti|Pesan yang diteruskan|Thư được chuyển tiếp|Προωθημένο μήνυμα|转发的邮件|轉寄的郵件|転送されたメッセージ|전달된 메시지)\s*:?\s*[-=_*]*\s*$/iu;

/** A mail's own subject when it is a forward, in the prefixes mail programs write. */
export const FORWARD_SUBJECT = /^\s*(fwd?|fw|wg|tr|rv|vs|vb|enc|doorst|i|pd|tov|ilt|πρθ|пер|转发|轉寄|転送)\s*[:：]/iu;

/** A mailing list's footer under a rule or `-- `. */
export const LIST_FOOTER =
  /mailing list|listinfo|unsubscribe|you received this message because you are subscribed|abbestellen|se désabonner|darse de baja/i;

/**
 * The program's own line at the end of a reply: "Sent from my iPhone", "Get Outlook for Android",
 * "Von meinem iPhone gesendet", "iPhoneから送信". It starts with the program's verb (or the device,
 * where the language puts it first) and is short: "Sent from my work address because …" is a
 * person's sentence, and so is "I sent it from my iPhone."
 */
export function isMailerLine(line: string): boolean {
  // Windows Mail links its name: "Sent from Mail<https://go.microsoft.com/…> for Windows".
  const text = line
    .replace(/<https?:[^>]*>|\[https?:[^\]]*\]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length === 0 || text.length > 80) return false;
  return MAILER.some((pattern) => pattern.test(text));
}

const DEVICE =
  '(iPhone|iPad|iPod|Android|Galaxy|Samsung|Outlook|BlackBerry|TypeApp|Blue ?Mail|Proton ?Mail|Yahoo ?Mail|AOL|Mail for Windows|Mail pour Windows|Huawei|Xiaomi|Pixel|Spark|Airmail|Edison|HEY|Superhuman|K-9|FairEmail|Nine|mobile|my phone|my device|smartphone|Handy|Mobilgerät|appareil|móvil|celular|telefon|телефон|puhelimesta|mail\\.ru|Yandex|Яндекс|Seznam|GMX|WEB\\.DE|Zoho|Gmail)';

const MAILER: RegExp[] = [
  new RegExp(
    `^(Sent|Sent from|Sent with|Sent via|Sent using|Get|Envoyé|Enviado|Enviada|Inviato|Verzonden|Verstuurd|Sendt|Skickat|Wysłane|Отправлено|Lähetetty|Odesláno|Dikirim|Gửi từ|Στάλθηκε|Gesendet)(?![\\p{L}]).{0,40}?${DEVICE}`,
    'iu',
  ),
  new RegExp(`^Von meinem .{0,30}gesendet\\.?$`, 'iu'),
  new RegExp(
    `^${DEVICE}.{0,20}(から送信|-ról küldve|-ről küldve|'?(umdan|undan|dan|den) gönderildi|에서 보냄|에서 보냈습니다)`,
    'iu',
  ),
  /^(发自我的|從我的|来自我的).{0,30}$/u,
  /^Sent with Proton Mail secure email\.?$/i,
  /^Sent from (Mail|Yahoo Mail|Outlook|TypeApp|BlueMail|my \S+)( for \S+)?( on \S+)?\.?$/i,
];
