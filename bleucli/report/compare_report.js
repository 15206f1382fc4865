(function(){"use strict";
var data=JSON.parse(document.getElementById("bleucli-data").textContent);
function fromHtml(html){var t=document.createElement("template");t.innerHTML="<table><tbody>"+html+"</tbody></table>";
 return t.content.querySelector("tbody");}
/* The rows' HTML: in the page data above LAZY_ROWS, else in the noscript element "rows-src", which a browser with
 scripting on keeps as one text node (no DOM built for it); the table shows a window of rows at a time. */
var held=document.getElementById("rows-src"),rows=data.rows;
if(!rows){var all=held.textContent,cut=all.indexOf("<tbody>"),tpl=document.createElement("template");
 tpl.innerHTML=all.slice(0,cut)+"<tbody></tbody></table>";held.parentNode.insertBefore(tpl.content,held);
 rows=all.slice(cut+7,all.lastIndexOf("</tbody>")).split("</tr>");rows.pop();}
var table=document.getElementById("sentences");var body=table.tBodies[0];
var N=data.bleu.length,WINDOW=100;
var order=[],i;for(i=1;i<=N;i++)order.push(i);
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
function row(n){if(!made[n]){made[n]=fromHtml(rows[n-1]).rows[0];}return made[n];}
function text(n){if(texts===null)texts={};if(texts[n]===undefined)texts[n]=plain(rows[n-1]).toLowerCase();
 return texts[n];}
function keep(n){var needle=q.value.trim().toLowerCase(),s=sign.value,t=parseFloat(thr.value),k=+which.value,d;
 if(pick&&pick.sign){k=pick.system;s=pick.sign;}d=delta(n,k);
 if(s==="better"&&!(d>0))return false;if(s==="worse"&&!(d<0))return false;if(s==="same"&&d!==0)return false;
 if(!isNaN(t)&&Math.abs(d)<t)return false;if(pickSet&&!pickSet.has(n))return false;
 if(needle&&text(n).indexOf(needle)<0)return false;return true;}
function make(list){var fresh=list.filter(function(n){return !made[n];});if(!fresh.length)return;
 var parsed=fromHtml(fresh.map(function(n){return rows[n-1];}).join("</tr>")).rows;/* one parse for them all */
 fresh.forEach(function(n,j){made[n]=parsed[j];});}
function more(){if(rendered>=visible.length)return;var frag=document.createDocumentFragment(),
 stop=Math.min(visible.length,rendered+WINDOW);make(visible.slice(rendered,stop));
 for(;rendered<stop;rendered++)frag.appendChild(row(visible[rendered]));body.appendChild(frag);}
function fill(){while(rendered<visible.length&&table.getBoundingClientRect().bottom<window.innerHeight+1500)more();}
function apply(){visible=order.filter(keep);body.textContent="";rendered=0;more();fill();
 shown.textContent=visible.length+" of "+N+" sentences shown";}
var pickEls=Array.prototype.slice.call(document.querySelectorAll("[data-pick]"));
function setPick(id){pick=id===null?null:data.picks[id];pickSet=pick&&pick.segments?new Set(pick.segments):null;
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
