"""Source of docs/employment-contract-fernhill.docx (python-docx; see ../make.sh)."""
import sys

from docx import Document

doc = Document()
doc.core_properties.title = "Statement of Main Terms of Employment: Eleanor Whitcombe"
doc.core_properties.author = "Fernhill Analytics Ltd, People Team"

doc.add_paragraph("Statement of Main Terms of Employment", style="Title")
doc.add_paragraph(
    "This statement is given under section 1 of the Employment Rights Act 1996. It is made on "
    "2 December 2024 between Fernhill Analytics Ltd, Unit 4, Quayside Works, Kingsmere KM1 3DL "
    "(\"the Company\") and Ms Eleanor Whitcombe of 14 Copperbeech Close, Kingsmere KM6 2RT (\"you\").")

sections = [
    ("1. Job title and duties", [
        "You are employed as a Senior Data Analyst in the Analytics team, reporting to the Head of "
        "Analytics, currently Mr Rupert Vasquez-Lowe. You may be asked to carry out other reasonable "
        "duties that match your skills."]),
    ("2. Start date", [
        "Your employment starts on Monday 6 January 2025. No employment with a previous employer "
        "counts towards your period of continuous employment."]),
    ("3. Place of work", [
        "Your normal place of work is the Company's office at Quayside Works, Kingsmere. You may work "
        "from home under the Company's hybrid working policy, but you are expected to be in the office "
        "at least 2 days a week, one of which is Tuesday, when the team meets."]),
    ("4. Hours of work", [
        "Your normal hours are 37.5 hours a week, Monday to Friday, 9.00 am to 5.30 pm with an unpaid "
        "lunch break of one hour. You may be asked to work additional hours when the business needs it; "
        "these are not paid as overtime but may be taken back as time off in lieu within one month."]),
    ("5. Salary", [
        "Your salary is £41,500 a year, paid in equal monthly instalments by bank transfer on the last "
        "working day of each month. Your salary will be reviewed each April; the first review will be "
        "in April 2026. There is no contractual right to an increase."]),
    ("6. Probation", [
        "The first 6 months of your employment are a probationary period. The Company may extend it "
        "once, by up to 3 months, if it needs more time to assess your performance, and will tell you "
        "in writing before the probationary period ends."]),
    ("7. Holidays", [
        "The holiday year runs from 1 January to 31 December. You are entitled to 26 days' paid holiday "
        "in each holiday year, plus the 8 usual bank holidays in England. In your first and last year "
        "your entitlement is worked out pro rata. Up to 5 unused days may be carried over into the next "
        "holiday year but must be taken by 31 March; any other untaken holiday is lost.",
        "You must ask your manager for holiday at least twice as many days in advance as the number of "
        "days you want to take. The office closes between Christmas and New Year, and you must keep "
        "3 days of your holiday for that closure."]),
    ("8. Sickness absence and sick pay", [
        "If you are unable to work because of illness you must tell your manager by 9.30 am on the first "
        "day of absence. For absence of more than 7 calendar days you must provide a fit note from a "
        "doctor.",
        "After completing probation you will receive full pay for up to 4 weeks of sickness absence in "
        "any rolling 12-month period, and then Statutory Sick Pay. During probation only Statutory Sick "
        "Pay is paid."]),
    ("9. Pension", [
        "You will be enrolled in the Company's workplace pension scheme with Orchard Lane Pensions. You "
        "contribute 5% of your basic salary and the Company contributes 4% of your basic salary. You may "
        "opt out within one month of being enrolled."]),
    ("10. Expenses", [
        "The Company will repay reasonable expenses incurred on Company business, on receipts. Business "
        "mileage in your own car is paid at 45p per mile for the first 10,000 miles in a tax year and "
        "25p per mile after that. Travel between home and the office is not business mileage."]),
    ("11. Confidentiality and data protection", [
        "You must not, during or after your employment, disclose any confidential information about "
        "the Company or its clients, except as required by law. You must follow the Company's data "
        "protection policy when handling personal data."]),
    ("12. Ending your employment", [
        "12.1 During the probationary period, including any extension, either you or the Company may "
        "end your employment by giving one week's written notice.",
        "12.2 Once you have completed your probationary period, you must give the Company two months' "
        "written notice to end your employment.",
        "12.3 Once you have completed your probationary period, the Company will give you three months' "
        "written notice, or the statutory minimum notice if that is longer.",
        "12.4 The Company may pay you your basic salary in lieu of all or part of your notice, and may "
        "ask you not to attend work during your notice period (garden leave)."]),
    ("13. Disciplinary and grievance", [
        "The disciplinary and grievance procedures are in the Staff Handbook on the intranet. They do "
        "not form part of your contract. If you have a grievance, raise it in writing with the Head of "
        "People."]),
]
for heading, paragraphs in sections:
    doc.add_heading(heading, level=1)
    for text in paragraphs:
        doc.add_paragraph(text)

doc.add_heading("Summary of key terms", level=1)
table = doc.add_table(rows=7, cols=2)
table.style = "Table Grid"
for r, (a, b) in enumerate([
        ("Term", "Detail"),
        ("Salary", "£41,500 a year"),
        ("Hours", "37.5 a week"),
        ("Holiday", "26 days plus bank holidays"),
        ("Probation", "6 months (may be extended by up to 3 months)"),
        ("Pension", "You 5%, Company 4%"),
        ("Office days", "At least 2 a week, including Tuesday")]):
    table.cell(r, 0).text = a
    table.cell(r, 1).text = b

doc.add_paragraph("")
doc.add_paragraph("Signed for the Company: Jasmine Oduya-Clarke, Head of People, 2 December 2024.")
doc.add_paragraph("Signed by the employee: Eleanor Whitcombe, 4 December 2024.")
doc.save(sys.argv[1])
