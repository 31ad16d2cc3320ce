"""Writes the mail fixtures with Python's email and mailbox packages, as a mail program would:
repair-quote.eml  a multipart/mixed message: a plain and an HTML alternative, and quote.pdf attached;
club.mbox         three messages: quoted-printable Latin-1 text with an encoded-word subject,
                  an HTML-only message, and a reply whose body has a line starting "From ".
Usage: python3 mail.py FOLDER QUOTE.pdf"""
import mailbox
import sys
from email.message import EmailMessage
from email.utils import format_datetime
from datetime import datetime, timezone, timedelta

folder, quote = sys.argv[1], sys.argv[2]

m = EmailMessage()
m["From"] = "Anna Keller <anna.keller@example.org>"
m["To"] = "Jonas Brandt <j.brandt@example.net>"
m["Date"] = format_datetime(datetime(2026, 11, 12, 9, 30, tzinfo=timezone(timedelta(hours=1))))
m["Subject"] = "Boiler repair in flat 3: the engineer's quote"
m["Message-ID"] = "<boiler-3@example.org>"
m.set_content("Dear Mr Brandt,\n\nAs promised on the phone, the engineer's quote for the boiler "
              "repair is attached. The valve itself costs 190 euros.\n\nCould you confirm by Friday "
              "that Hollis Heating may go ahead?\n\nBest regards,\nAnna\n")
m.add_alternative("<html><body><p>Dear Mr Brandt,</p><p>As promised on the phone, the engineer's quote "
                  "for the boiler repair is attached. The valve itself costs 190 euros.</p><p>Could you "
                  "confirm by Friday that Hollis Heating may go ahead?</p><p>Best regards,<br>Anna</p>"
                  "</body></html>", subtype="html")
with open(quote, "rb") as f:
    m.add_attachment(f.read(), maintype="application", subtype="pdf", filename="quote.pdf")
with open(f"{folder}/repair-quote.eml", "wb") as f:
    f.write(bytes(m))

box = mailbox.mbox(f"{folder}/club.mbox", create=True)
box.lock()
box.clear()
a = EmailMessage()
a["From"] = "Ruth Müller <ruth@example.org>"
a["To"] = "garden-club@example.org"
a["Date"] = format_datetime(datetime(2027, 1, 4, 18, 5, tzinfo=timezone.utc))
a["Subject"] = "Hall booking für the members' meeting"
a.set_content("Hello all,\n\nI have booked the church hall on Thursday 14 January from 7 to 9 pm. "
              "The key is with the café next door; ask for Jürgen.\n\nRuth\n", charset="iso-8859-1", cte="quoted-printable")
box.add(a)
b = EmailMessage()
b["From"] = "Tom Okafor <tom@example.org>"
b["To"] = "garden-club@example.org"
b["Date"] = format_datetime(datetime(2027, 1, 20, 8, 12, tzinfo=timezone.utc))
b["Subject"] = "Seeds ordered"
b.set_content("<html><body><h2>Seeds ordered</h2><p>I ordered the seeds from Kings Seeds this morning: "
              "<b>172 pounds</b> in all, paid with the club card.</p><ul><li>Tomatoes: Gardener's Delight</li>"
              "<li>Runner beans: Scarlet Emperor</li></ul></body></html>", subtype="html")
box.add(b)
c = EmailMessage()
c["From"] = "Ruth Müller <ruth@example.org>"
c["To"] = "Tom Okafor <tom@example.org>"
c["Date"] = format_datetime(datetime(2027, 1, 20, 9, 40, tzinfo=timezone.utc))
c["Subject"] = "Re: Seeds ordered"
c["In-Reply-To"] = "<seeds@example.org>"
c.set_content("Thanks Tom.\n\nFrom now on please keep the receipts in the blue folder in the shed.\n\n"
              "> I ordered the seeds from Kings Seeds this morning.\n")
box.add(c)
box.flush()
box.unlock()
