"""VAB's two CPU kernels against the row walk, from araios-bench CSVs of alternating rounds.

Usage: python3 compare.py bench/drawn-777001-   (reads PREFIX{two,walk}-r*.csv)
Prints a Markdown table of the least time of each form over the rounds, their ratio, and whether
every round gave the same y hash.
"""
import csv,sys,math,glob
def load(f):
    d={}
    for r in csv.DictReader(open(f)):
        if r['kernel']=='vab': d[r['matrix']]=(float(r['time_s'])*1e6,r['y_hash'],r['nnz'])
    return d
pre=sys.argv[1]
rounds=sorted(set(f.split('-r')[1].split('.')[0] for f in glob.glob(pre+'two-r*.csv')))
two=[load(f'{pre}two-r{k}.csv') for k in rounds]; walk=[load(f'{pre}walk-r{k}.csv') for k in rounds]
ratios=[]
print('| matrix | nnz | two kernels (µs) | row walk (µs) | two ÷ walk | bits |')
print('|---|--:|--:|--:|--:|---|')
for m in two[0]:
    t=min(d[m][0] for d in two); w=min(d[m][0] for d in walk)
    same=all(d[m][1]==two[0][m][1] for d in two+walk)
    ratios.append(t/w)
    print(f'| {m} | {two[0][m][2]} | {t:.1f} | {w:.1f} | {t/w:.2f} | {"same" if same else "DIFFER"} |')
print('geomean', math.exp(sum(map(math.log,ratios))/len(ratios)))
