"""Source of docs/email-okafor-quote.eml (Python's email package; see ../make.sh)."""
import sys
from email.message import EmailMessage
from email.utils import format_datetime
from datetime import datetime, timezone, timedelta

body = """Hi Nell,

Thanks for your call this afternoon. As promised, here is my quote for the work at
14 Copperbeech Close, and confirmation of the boiler service.

Boiler service: Tuesday 8 April. I'll arrive between 8 and 8.30am. The annual service of
the Thermora Combi 30i is £96.00 and takes about an hour and a half.

Quote for the other work:

1. Replace the weeping kitchen radiator valve (lockshield side), drain down, refill
   and add inhibitor: £145.00
2. Fit thermostatic radiator valves (TRVs) to the three bedroom radiators:
   £45.00 each, £135.00 in total
3. Supply and fit a carbon monoxide alarm in the kitchen: £28.00

If you have all three done on the same day it comes to £290.00 rather than £308.00,
because I only need to drain the system down once.

Prices include parts and labour. I'm not VAT registered, so there is no VAT to add.
The quote is valid for 30 days. Payment by bank transfer within 7 days of the work to
Okafor Heating & Plumbing, sort code 60-84-17, account 21907734.

Before I come, please clear the kitchen cupboard under the boiler so that I can get to
the filling loop and the magnetic filter.

For your records, my Gas Safe registration number is 584213; you can check it on the
Gas Safe Register website.

If you need me, my mobile is 07700 900418 (best between 7am and 6pm). The office number
is 01632 960732; Grace answers it Monday to Thursday.

Cheers,
Dan

Daniel Okafor
Okafor Heating & Plumbing
22 Tannery Lane, Kingsmere KM3 8HW

On 1 Apr 2025, at 14:03, Nell Whitcombe <nell.whitcombe@mailbox.example> wrote:
> Hi Dan, the boiler is due its service (the last one was 11 April last year) and the
> kitchen radiator valve is dripping. Could you quote for that and for TRVs upstairs?
> Thanks, Nell
"""

msg = EmailMessage()
msg["From"] = "Daniel Okafor <dan@okaforheating.example>"
msg["To"] = "Nell Whitcombe <nell.whitcombe@mailbox.example>"
msg["Subject"] = "Re: Boiler service and quote for radiator valves"
msg["Date"] = format_datetime(datetime(2025, 4, 1, 18, 42, 10, tzinfo=timezone(timedelta(hours=1))))
msg["Message-ID"] = "<20250401184210.4417@okaforheating.example>"
msg["In-Reply-To"] = "<CAF3d81kq0@mailbox.example>"
msg.set_content(body)
with open(sys.argv[1], "wb") as f:
    f.write(bytes(msg))
