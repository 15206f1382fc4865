(function(){"use strict";
var data=JSON.parse(document.getElementById("bleucli-data").textContent);
function fromHtml(html){var t=document.createElement("template");t.innerHTML="<table><tbody>"+html+"</tbody></table>";
 return t.content.querySelector("tbody");}
/* The rows' HTML: above LAZY_ROWS made here from the page data's compact table (texts once, highlighting and
 numbers as base-32 runs, scores as numbers), the very HTML the generator writes for a small page; else in the
 noscript element "rows-src", which a browser with scripting on keeps as one text node (no DOM built for it).
 The table shows a window of rows at a time. */
var held=document.getElementById("rows-src"),rows,T=data.table;
var ESC={"&":"&amp;","<":"&lt;",">":"&gt;","\"":"&quot;","'":"&#x27;"};
function esc(s){return s.replace(/[&<>"']/g,function(c){return ESC[c];});}
/* Python's format(x, ".1f"): toFixed, except at an exact tie, which Python rounds to even (only x.25 and x.75
 are ties at one decimal, and only x.25 rounds differently), and -0 */
function fmt(x){var s=x.toFixed(1),q=Math.abs(x)*4;
 if(Number.isInteger(q)&&q%4===1)s=(x<0?"-":"")+(Math.floor(Math.abs(x)*10)/10).toFixed(1);
 return x===0&&1/x<0?"-"+s:s;}
function signed(x){var s=fmt(x);return parseFloat(s)===0?fmt(0):(x>0?"+":"")+s;}
function tone(x,lower){if(lower)x=-x;return x>0?"pos":x<0?"neg":"";}
var DIGIT={},i;
for(i=0;i<32;i++){DIGIT["0123456789abcdefghijklmnopqrstuv"[i]]=[i,1];DIGIT["ABCDEFGHIJKLMNOPQRSTUVWXYZ_-+*/="[i]]=[i,0];}
function ints(s){var out=[],v=0,j,d;for(j=0;j<s.length;j++){d=DIGIT[s[j]];v=v*32+d[0];if(d[1]){out.push(v);v=0;}}
 return out;}
/* a compact pick's segments: ascending, each the gap from the one before */
function gaps(code){var v=ints(code),j;for(j=1;j<v.length;j++)v[j]+=v[j-1];return v;}
var CLASSES=["m1","m2","m3","m4","d","m1 d","m2 d","m3 d","m4 d"];
function lit(text,code){var r=ints(code),out="",at=0,j,start,end;
 for(j=0;j<r.length;j+=2){start=at+Math.floor(r[j]/9);end=start+r[j+1];
  out+=esc(text.slice(at,start))+"<span class=\""+CLASSES[r[j]%9]+"\">"+esc(text.slice(start,end))+"</span>";at=end;}
 return out+esc(text.slice(at));}
function numbers(code){var v=ints(code),N=T.order,o=[],j,bp=String(v[2]);
 for(j=0;j<N;j++)o.push((j+1)+"-gram "+v[4+j]+"/"+(Math.max(0,v[0]-j)+v[4+N+j]));
 while(bp.length<4)bp="0"+bp;
 return "<details><summary>numbers</summary>"+o.join(" \u00b7 ")+" \u00b7 BP "+bp.slice(0,-3)+"."+bp.slice(-3)+
  " \u00b7 hyp "+v[0]+" / ref "+v[1]+" tokens"+(v[3]?" \u00b7 "+v[3]+" token(s) not shown (rewritten by the tokenizer)":"")+
  "</details>";}
function build(n){var i=n-1,k,m,K=data.systems.length,c=["<td class=\"num\"><a href=\"#s"+n+
  "\" aria-label=\"permalink to segment "+n+"\">"+n+"</a></td>"],refs=[],s,b0=data.bleu[i][0];
 if(T.doc)c.push("<td class=\"doc\">"+esc(T.doc[i])+"</td>");
 if(T.src)c.push("<td class=\"txt\"><span class=\"t\">"+esc(T.src[i])+"</span></td>");
 for(k=0;k<T.ref.length;k++)refs.push(esc(T.ref[k][i]));
 c.push("<td class=\"txt\"><span class=\"t\">"+refs.join("<br>")+"</span></td>");
 for(k=0;k<K;k++)c.push("<td class=\"out\"><span class=\"t\">"+lit(T.hyp[k][i],T.hl[k][i])+"</span>"+
  numbers(T.num[k][i])+"</td><td class=\"num\">"+fmt(data.bleu[i][k])+"</td>");
 for(k=1;k<K;k++){s=data.bleu[i][k]-b0;c.push("<td class=\"num "+tone(s,false)+"\">"+signed(s)+"</td>");}
 for(m=0;m<T.lower.length;m++){s=T.scores[m][i];
  for(k=0;k<K;k++)c.push("<td class=\"num\">"+fmt(s[k])+"</td>");
  for(k=1;k<K;k++)c.push("<td class=\"num "+tone(s[k]-s[0],T.lower[m])+"\">"+signed(s[k]-s[0])+"</td>");}
 return "<tr id=\"s"+n+"\" data-n=\""+n+"\">"+c.join("")+"</tr>";}
if(T){rows=null;}
else if(data.rows){rows=data.rows;}
else{var all=held.textContent,cut=all.indexOf("<tbody>"),tpl=document.createElement("template");
 tpl.innerHTML=all.slice(0,cut)+"<tbody></tbody></table>";held.parentNode.insertBefore(tpl.content,held);
 rows=all.slice(cut+7,all.lastIndexOf("</tbody>")).split("</tr>");rows.pop();}
function html(n){return rows?rows[n-1]:build(n);}
var table=document.getElementById("sentences");var body=table.tBodies[0];
var N=data.bleu.length,WINDOW=100;
var order=[];for(i=1;i<=N;i++)order.push(i);
var visible=order,rendered=0,texts=null,made={};
var ENT={"&amp;":"&","&lt;":"<","&gt;":">","&quot;":"\"","&#x27;":"'"};
function plain(html){return html.replace(/<[^>]*>/g,"").replace(/&(amp|lt|gt|quot|#x27);/g,function(e){return ENT[e];});}
var form=document.getElementById("filters");form.hidden=false;
var q=document.getElementById("f-text"),sign=document.getElementById("f-sign"),
 thr=document.getElementById("f-threshold"),which=document.getElementById("f-system"),
 shown=document.getElementById("f-count"),pickNote=document.getElementById("f-bucket");
var pick=null,pickSet=null,target=null;
function bleu(n,k){return data.bleu[n-1][k];}
function delta(n,k){return bleu(n,k)-bleu(n,0);}
function row(n){if(!made[n]){made[n]=fromHtml(html(n)).rows[0];}return made[n];}
function text(n){if(texts===null)texts={};if(texts[n]===undefined)texts[n]=plain(html(n)).toLowerCase();
 return texts[n];}
function keep(n){var needle=q.value.trim().toLowerCase(),s=sign.value,t=parseFloat(thr.value),k=+which.value,d;
 if(pick&&pick.sign){k=pick.system;s=pick.sign;}d=delta(n,k);
 if(s==="better"&&!(d>0))return false;if(s==="worse"&&!(d<0))return false;if(s==="same"&&d!==0)return false;
 if(!isNaN(t)&&Math.abs(d)<t)return false;if(pickSet&&!pickSet.has(n))return false;
 if(needle&&text(n).indexOf(needle)<0)return false;return true;}
function make(list){var fresh=list.filter(function(n){return !made[n];});if(!fresh.length)return;
 var parsed=fromHtml(fresh.map(function(n){return html(n);}).join("</tr>")).rows;/* one parse for them all */
 fresh.forEach(function(n,j){made[n]=parsed[j];});}
function more(){if(rendered>=visible.length)return;var frag=document.createDocumentFragment(),
 stop=Math.min(visible.length,rendered+WINDOW);make(visible.slice(rendered,stop));
 for(;rendered<stop;rendered++)frag.appendChild(row(visible[rendered]));body.appendChild(frag);}
function fill(){while(rendered<visible.length&&table.getBoundingClientRect().bottom<window.innerHeight+1500)more();}
function apply(){visible=order.filter(keep);body.textContent="";rendered=0;more();fill();
 shown.textContent=visible.length+" of "+N+" sentences shown";}
var pickEls=Array.prototype.slice.call(document.querySelectorAll("[data-pick]"));
function setPick(id){pick=id===null?null:data.picks[id];pickSet=pick&&(pick.segments||pick.seg)?new Set(pick.segments||gaps(pick.seg)):null;
 pickEls.forEach(function(el){el.setAttribute("aria-pressed",String(id!==null&&+el.dataset.pick===id));});
 pickNote.textContent=pick?"selected: "+pick.label:"";apply();}
function clearFilters(){q.value="";sign.value="all";thr.value="";setPick(null);}
[q,sign,thr,which].forEach(function(el){el.addEventListener("input",apply);el.addEventListener("change",apply);});
document.getElementById("f-clear").addEventListener("click",function(){clearFilters();});
pickEls.forEach(function(el){function go(){var id=+el.dataset.pick;
  setPick(el.getAttribute("aria-pressed")==="true"?null:id);table.scrollIntoView();}
 el.addEventListener("click",go);
 if(el.tagName!=="BUTTON")el.addEventListener("keydown",function(e){
  if(e.key==="Enter"||e.key===" "){e.preventDefault();go();}});});
var heads=Array.prototype.slice.call(table.tHead.rows[0].cells);
heads.forEach(function(th){var b=th.querySelector("button");if(!b)return;b.addEventListener("click",function(){
 var key=b.dataset.key,dir=th.getAttribute("aria-sort")==="descending"?"ascending":"descending";
 heads.forEach(function(h){if(h.querySelector("button"))h.setAttribute("aria-sort","none");});
 th.setAttribute("aria-sort",dir);var sgn=dir==="ascending"?1:-1;
 function value(n){if(key==="n")return n;var k=+key.slice(1);return key[0]==="b"?bleu(n,k):delta(n,k);}
 var keyed=order.map(function(n){return [value(n),n];});
 keyed.sort(function(a,b){return a[0]===b[0]?a[1]-b[1]:sgn*(a[0]-b[0]);});
 order=keyed.map(function(x){return x[1];});apply();});});
function cellText(c){var t=c.querySelector(".t");return (t?t.textContent:c.textContent).replace(/[\t\r\n]+/g," ").trim();}
document.getElementById("f-copy").addEventListener("click",function(){
 var lines=[heads.map(function(h){return h.textContent.trim();}).join("\t")];make(visible);
 visible.forEach(function(n){lines.push(Array.prototype.map.call(row(n).cells,cellText).join("\t"));});
 var out=document.getElementById("tsv");out.value=lines.join("\n")+"\n";out.hidden=false;out.select();
 if(navigator.clipboard){navigator.clipboard.writeText(out.value).catch(function(){});}});
function reveal(){var id=location.hash.slice(1);if(!/^s[0-9]+$/.test(id))return;var n=+id.slice(1);
 if(n<1||n>N)return;if(visible.indexOf(n)<0)clearFilters();
 var at=visible.indexOf(n);while(rendered<=at)more();
 var r=row(n);if(target)target.classList.remove("target");target=r;r.classList.add("target");
 if(document.querySelector(":target")!==r)location.replace(location.href);/* :target, now that the row exists */
 r.scrollIntoView({block:"center"});}
window.addEventListener("hashchange",reveal);
window.addEventListener("beforeprint",function(){while(rendered<visible.length)more();});
var ticking=false;window.addEventListener("scroll",function(){if(ticking)return;ticking=true;
 window.requestAnimationFrame(function(){ticking=false;fill();});});
apply();reveal();
/* the text filter reads every row's text: prepare it while the reader is idle, a slice at a time */
var idle=window.requestIdleCallback||function(f){return setTimeout(function(){f({timeRemaining:function(){return 8;}});},50);},
 warmed=0;
function warm(deadline){while(warmed<N&&deadline.timeRemaining()>2){text(++warmed);}if(warmed<N)idle(warm);}
idle(warm);
})();
