"""Source of docs/household-budget-2025.xlsx (openpyxl; see ../make.sh).
Totals are written as values, as a spreadsheet program saves them beside its formulas."""
import sys
from decimal import Decimal

from openpyxl import Workbook
from openpyxl.styles import Font

wb = Workbook()
wb.properties.title = "Household budget 2025"
wb.properties.creator = "Eleanor Whitcombe"
ws = wb.active
ws.title = "Monthly"
ws.append(["Household budget 2025 (joint account)"])
ws["A1"].font = Font(bold=True, size=14)
ws.append([])
header = ["Category", "Monthly budget", "January", "February", "March", "Notes"]
ws.append(header)
for c in ws[3]:
    c.font = Font(bold=True)
rows = [
    ("Mortgage", "1142.37", "1142.37", "1142.37", "1142.37", "Kingsmere BS, fixed to Oct 2027"),
    ("Council tax", "187.00", "176.00", "176.00", "176.00", "New bill from April"),
    ("Energy (gas and electricity)", "165.00", "165.00", "172.57", "165.00", "Brightwater DD on the 18th"),
    ("Water", "48.50", "48.50", "48.50", "48.50", ""),
    ("Broadband", "32.00", "32.00", "32.00", "32.00", "Contract ends August"),
    ("Mobile phones", "41.00", "41.00", "41.00", "41.00", ""),
    ("Groceries", "520.00", "561.84", "498.10", "414.24", "Freshways mostly"),
    ("Eating out", "90.00", "112.40", "64.75", "23.60", ""),
    ("Fuel and car", "140.00", "96.35", "71.10", "74.83", "Includes vehicle tax"),
    ("Home insurance", "33.91", "31.20", "31.20", "33.91", "Renewed 14 March"),
    ("Children's clubs", "110.00", "104.00", "104.00", "52.50", "Swimming, Brownies, school trips"),
    ("Subscriptions", "24.98", "24.98", "24.98", "10.99", "Cancelled music service in March"),
    ("House and garden", "75.00", "0.00", "120.00", "38.47", "Hardware, paint"),
    ("Holiday saving", "150.00", "150.00", "150.00", "150.00", "Edinburgh in July"),
]
totals = [Decimal(0)] * 4
for name, *nums, note in rows:
    values = [Decimal(n) for n in nums]
    totals = [t + v for t, v in zip(totals, values)]
    ws.append([name] + [float(v) for v in values] + [note])
ws.append(["Total"] + [float(t) for t in totals] + [""])
for c in ws[ws.max_row]:
    c.font = Font(bold=True)
ws.append([])
ws.append(["Income", "", "", "", "", ""])
ws.append(["Eleanor net salary", 2566.90, 2566.90, 2566.90, 2566.90, "Fernhill, paid last working day"])
ws.append(["Tomasz household share", 1450.00, 1450.00, 1450.00, 1450.00, "Transferred on the 3rd"])
for row in ws.iter_rows(min_row=4, min_col=2, max_col=5):
    for c in row:
        c.number_format = '£#,##0.00'
ws.column_dimensions["A"].width = 30
ws.column_dimensions["F"].width = 34

sv = wb.create_sheet("Savings goals")
sv.append(["Goal", "Target", "Saved so far", "Target date", "Monthly saving"])
for c in sv[1]:
    c.font = Font(bold=True)
for row in [
        ("Edinburgh holiday", 1200, 850, "1 July 2025", 150),
        ("Emergency fund", 6000, 4350, "31 December 2025", 100),
        ("Bike for Maisie's birthday", 280, 120, "14 September 2025", 30),
        ("New sofa", 900, 0, "Spring 2026", 0)]:
    sv.append(list(row))
for row in sv.iter_rows(min_row=2, min_col=2, max_col=3):
    for c in row:
        c.number_format = '£#,##0'
sv.append([])
sv.append(["Saved as of 31 March 2025. The emergency fund is in the Kingsmere BS easy-access saver (3.1% AER)."])
wb.save(sys.argv[1])
