"""Source of docs/bank-statement-2025-03.csv (Python's csv module; see ../make.sh).
A March 2025 statement exported from online banking: the running balance is computed here."""
import csv
import sys
from decimal import Decimal

opening = Decimal("1204.55")
rows = [
    ("01/03/2025", "DD", "KINGSMERE BS MORTGAGE 00471285", "1142.37", ""),
    ("01/03/2025", "DD", "KINGSMERE CITY COUNCIL CTAX 5102339871", "176.00", ""),
    ("02/03/2025", "DEB", "FRESHWAYS SUPERSTORE KINGSMERE", "86.42", ""),
    ("03/03/2025", "FPI", "T BRANDT HOUSEHOLD SHARE", "", "1450.00"),
    ("04/03/2025", "DD", "KINGSMERE WATER 33018842", "48.50", ""),
    ("05/03/2025", "DD", "SPARKLINE BROADBAND", "32.00", ""),
    ("06/03/2025", "DEB", "FRESHWAYS SUPERSTORE KINGSMERE", "64.18", ""),
    ("07/03/2025", "DEB", "STREAMBOX SUBSCRIPTION", "10.99", ""),
    ("08/03/2025", "SO", "KINGSMERE OTTERS SC MAISIE", "32.00", ""),
    ("10/03/2025", "DEB", "CORNER FUEL KINGSMERE", "58.20", ""),
    ("11/03/2025", "DEB", "FRESHWAYS SUPERSTORE KINGSMERE", "72.95", ""),
    ("12/03/2025", "FPO", "TRANSFER TO HOLIDAY SAVER", "150.00", ""),
    ("14/03/2025", "DD", "HARBOURLINE INS HHL77302291K", "33.91", ""),
    ("15/03/2025", "DEB", "HALLORAN HARDWARE KINGSMERE", "38.47", ""),
    ("17/03/2025", "DD", "VELOCITY MOBILE", "41.00", ""),
    ("18/03/2025", "DD", "BRIGHTWATER ENERGY 88120473", "165.00", ""),
    ("19/03/2025", "DEB", "FRESHWAYS SUPERSTORE KINGSMERE", "91.30", ""),
    ("20/03/2025", "DEB", "PARENTPAY ASHCOMBE PRIMARY", "8.50", ""),
    ("21/03/2025", "DEB", "THE COPPER KETTLE CAFE", "23.60", ""),
    ("24/03/2025", "DEB", "FRESHWAYS SUPERSTORE KINGSMERE", "58.77", ""),
    ("25/03/2025", "ATM", "CASH WITHDRAWAL HIGH ST KINGSMERE", "40.00", ""),
    ("26/03/2025", "DD", "DVLA-KM19 XRT", "16.63", ""),
    ("27/03/2025", "DEB", "FRESHWAYS SUPERSTORE REFUND", "", "4.50"),
    ("28/03/2025", "DEB", "KINGSMERE LEISURE CENTRE", "12.00", ""),
    ("31/03/2025", "BGC", "FERNHILL ANALYTICS SALARY", "", "2566.90"),
    ("31/03/2025", "DEB", "FRESHWAYS SUPERSTORE KINGSMERE", "45.12", ""),
]
with open(sys.argv[1], "w", newline="", encoding="utf-8") as f:
    w = csv.writer(f)
    w.writerow(["Date", "Type", "Description", "Paid out", "Paid in", "Balance"])
    balance = opening
    w.writerow(["01/03/2025", "", "BALANCE BROUGHT FORWARD", "", "", f"{balance:.2f}"])
    for date, kind, desc, out, inn in rows:
        balance = balance - Decimal(out or "0") + Decimal(inn or "0")
        w.writerow([date, kind, desc, out, inn, f"{balance:.2f}"])
